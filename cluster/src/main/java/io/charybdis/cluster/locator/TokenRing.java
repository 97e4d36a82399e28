package io.charybdis.cluster.locator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The token ring of one metadata epoch: every vnode token (Murmur3, signed 64-bit) and the endpoint that owns it.
 * Immutable; a new ring is built for every membership or ownership change and swapped in whole.
 *
 * <p>A token t belongs to the first ring token &ge; t, wrapping around to the smallest: the owner of ring token
 * {@code T[i]} owns the range {@code (T[i-1], T[i]]}. Replica sets are walked clockwise from that token by the
 * replication strategy ({@link ReplicationStrategy}).
 */
public final class TokenRing {
    private final long[] tokens;
    private final Endpoint[] owners;
    private final List<Endpoint> endpoints;

    private TokenRing(long[] tokens, Endpoint[] owners, List<Endpoint> endpoints) {
        this.tokens = tokens;
        this.owners = owners;
        this.endpoints = endpoints;
    }

    /** A ring of the given endpoints and their tokens. A token owned twice is an error. */
    public static TokenRing of(Map<Endpoint, ? extends Collection<Long>> tokensByEndpoint) {
        TreeMap<Long, Endpoint> sorted = new TreeMap<>();
        for (Map.Entry<Endpoint, ? extends Collection<Long>> e : tokensByEndpoint.entrySet()) {
            for (long t : e.getValue()) {
                Endpoint previous = sorted.put(t, e.getKey());
                if (previous != null && !previous.equals(e.getKey())) {
                    throw new IllegalArgumentException("token " + t + " owned by both " + previous + " and " + e.getKey());
                }
            }
        }
        if (sorted.isEmpty()) {
            throw new IllegalArgumentException("a ring needs at least one token");
        }
        long[] tokens = new long[sorted.size()];
        Endpoint[] owners = new Endpoint[sorted.size()];
        int i = 0;
        Set<Endpoint> all = new LinkedHashSet<>();
        for (Map.Entry<Long, Endpoint> e : sorted.entrySet()) {
            tokens[i] = e.getKey();
            owners[i] = e.getValue();
            all.add(e.getValue());
            i++;
        }
        return new TokenRing(tokens, owners, List.copyOf(all));
    }

    /** True when both rings (either may be null) place the same tokens on the same endpoints. */
    public static boolean samePlacement(TokenRing a, TokenRing b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        return java.util.Arrays.equals(a.tokens, b.tokens) && java.util.Arrays.equals(a.owners, b.owners);
    }

    public int size() {
        return tokens.length;
    }

    public long token(int index) {
        return tokens[index];
    }

    public Endpoint owner(int index) {
        return owners[index];
    }

    /** Every endpoint that owns at least one token, in ring order of first appearance. */
    public List<Endpoint> endpoints() {
        return endpoints;
    }

    /** The tokens an endpoint owns, ascending. */
    public List<Long> tokensOf(Endpoint e) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < tokens.length; i++) {
            if (owners[i].equals(e)) {
                out.add(tokens[i]);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** Index of the ring token whose range holds {@code token}: the first ring token &ge; it, wrapping. */
    public int indexOf(long token) {
        int i = Arrays.binarySearch(tokens, token);
        if (i < 0) {
            i = -i - 1;
        }
        return i == tokens.length ? 0 : i;
    }

    /** The token that ends the range before ring token {@code index} (the range is (previous, token(index)]). */
    public long previousToken(int index) {
        return tokens[index == 0 ? tokens.length - 1 : index - 1];
    }

    public Endpoint primaryOwner(long token) {
        return owners[indexOf(token)];
    }
}
