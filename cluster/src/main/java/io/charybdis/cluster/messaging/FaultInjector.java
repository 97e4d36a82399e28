package io.charybdis.cluster.messaging;

import java.net.InetSocketAddress;

/**
 * Test-only control of internode traffic: decides, for every frame a node is about to send, whether it goes out,
 * is silently dropped (the receiver never sees it: a partition, or a lost packet), or goes out after a delay.
 * Production nodes use {@link #NONE}.
 */
@FunctionalInterface
public interface FaultInjector {
    /** @return how long to hold the frame in milliseconds (0: send now), or {@link #DROP} */
    long onSend(InetSocketAddress from, InetSocketAddress to, Verb verb, boolean response);

    long DROP = -1;

    FaultInjector NONE = (from, to, verb, response) -> 0;
}
