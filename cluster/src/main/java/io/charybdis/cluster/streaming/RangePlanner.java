package io.charybdis.cluster.streaming;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.ReplicationStrategy;
import io.charybdis.cluster.locator.TokenRing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which ranges move where when the ring changes: pure functions of two rings and a replication strategy.
 *
 * <p>The ranges compared are those cut by the tokens of both rings together, so each lies inside one range of
 * either ring and has one replica set in each. A node gains a range when it is among the new replicas but not the
 * old ones; it fetches it from every old replica that is still alive (not from one only, as Cassandra does by
 * default: then whatever any replica had acknowledged reaches the new one, even a write that missed some replicas).
 */
public final class RangePlanner {
    private RangePlanner() {
    }

    /** A range a node gains, with the replicas that hold it now. */
    public record Transfer(Endpoint target, TokenRange range, List<Endpoint> sources) {
    }

    /** The ranges each node gains going from {@code before} to {@code after}, adjacent ranges not merged. */
    public static List<Transfer> transfers(TokenRing before, TokenRing after, ReplicationStrategy strategy,
                                           Endpoint self) {
        List<Transfer> out = new ArrayList<>();
        for (TokenRange r : cut(before, after)) {
            List<Endpoint> old = strategy.replicas(r.right(), before, self);
            List<Endpoint> next = strategy.replicas(r.right(), after, self);
            for (Endpoint e : next) {
                if (!old.contains(e)) {
                    out.add(new Transfer(e, r, old));
                }
            }
        }
        return out;
    }

    /** The ranges {@code node} is a replica of in {@code ring}, each with its replicas. */
    public static Map<TokenRange, List<Endpoint>> rangesOf(Endpoint node, TokenRing ring, ReplicationStrategy strategy) {
        Map<TokenRange, List<Endpoint>> out = new LinkedHashMap<>();
        for (int i = 0; i < ring.size(); i++) {
            List<Endpoint> replicas = strategy.replicas(ring.token(i), ring, node);
            if (replicas.contains(node)) {
                out.put(new TokenRange(ring.previousToken(i), ring.token(i)), replicas);
            }
        }
        return out;
    }

    /** The ring's ranges as both rings' tokens cut them. */
    static List<TokenRange> cut(TokenRing a, TokenRing b) {
        TreeSet<Long> tokens = new TreeSet<>();
        for (int i = 0; i < a.size(); i++) {
            tokens.add(a.token(i));
        }
        for (int i = 0; i < b.size(); i++) {
            tokens.add(b.token(i));
        }
        List<TokenRange> out = new ArrayList<>(tokens.size());
        long previous = tokens.last();
        for (long t : tokens) {
            out.add(new TokenRange(previous, t));
            previous = t;
        }
        return out;
    }
}
