package io.charybdis.cluster.messaging;

import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.util.function.Predicate;

/**
 * TLS of internode messaging ({@code server_encryption_options}): the inbound side serves TLS with {@code server},
 * requiring it unless {@code inboundOptional} (then plain-text peers are served too, told apart by their first bytes);
 * an outbound connection to a peer is encrypted with {@code client} when {@code encryptTo} says so (Cassandra's
 * {@code internode_encryption}: all peers, or those in another datacenter or rack).
 */
public record InternodeTls(SslContext server, SslContext client, boolean inboundOptional,
                           Predicate<InetSocketAddress> encryptTo) {
}
