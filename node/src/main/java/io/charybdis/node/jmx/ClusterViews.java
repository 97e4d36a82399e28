package io.charybdis.node.jmx;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ring as StorageService, FailureDetector and EndpointSnitchInfo show it on a cluster member: every member of
 * the metadata log with its status (JOINING, NORMAL, LEAVING), liveness from the failure detector and tokens.
 * Endpoints are named as Cassandra names them: address, or address:storage_port in the "WithPort" attributes.
 */
final class ClusterViews {
    private static final BigDecimal RING = new BigDecimal(BigInteger.ONE.shiftLeft(64));

    private ClusterViews() {
    }

    static String name(ClusterOps.Member m, boolean withPort) {
        return withPort ? m.endpointWithPort() : m.address();
    }

    static List<String> nodes(ClusterOps c, boolean withPort, java.util.function.Predicate<ClusterOps.Member> which) {
        List<String> out = new ArrayList<>();
        for (ClusterOps.Member m : c.members()) {
            if (which.test(m)) {
                out.add(name(m, withPort));
            }
        }
        return out;
    }

    static List<String> live(ClusterOps c, boolean withPort) {
        return nodes(c, withPort, ClusterOps.Member::alive);
    }

    static List<String> unreachable(ClusterOps c, boolean withPort) {
        return nodes(c, withPort, m -> !m.alive());
    }

    static List<String> withStatus(ClusterOps c, boolean withPort, String status) {
        return nodes(c, withPort, m -> m.status().equals(status));
    }

    /** Every member's tokens, ascending, with their owner. */
    static Map<String, String> tokenToEndpoint(ClusterOps c, boolean withPort) {
        TreeMap<Long, String> sorted = new TreeMap<>();
        for (ClusterOps.Member m : c.members()) {
            for (long t : m.tokens()) {
                sorted.put(t, name(m, withPort));
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        sorted.forEach((t, e) -> out.put(Long.toString(t), e));
        return out;
    }

    static Map<String, String> hostIds(ClusterOps c, boolean endpointFirst, boolean withPort) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ClusterOps.Member m : c.members()) {
            if (endpointFirst) {
                out.put(name(m, withPort), m.hostId().toString());
            } else {
                out.put(m.hostId().toString(), name(m, withPort));
            }
        }
        return out;
    }

    /** The owners' ring: tokens of NORMAL and LEAVING members. */
    private static TreeMap<Long, ClusterOps.Member> ring(ClusterOps c) {
        TreeMap<Long, ClusterOps.Member> ring = new TreeMap<>();
        for (ClusterOps.Member m : c.members()) {
            if (!m.status().equals("JOINING")) {
                for (long t : m.tokens()) {
                    ring.put(t, m);
                }
            }
        }
        return ring;
    }

    /** The fraction of the ring range (previous token, token] covers. */
    private static BigDecimal width(long previous, long token, int ringSize) {
        if (ringSize == 1) {
            return BigDecimal.ONE;
        }
        BigInteger w = BigInteger.valueOf(token).subtract(BigInteger.valueOf(previous)).mod(BigInteger.ONE.shiftLeft(64));
        return new BigDecimal(w).divide(RING, MathContext.DECIMAL64);
    }

    /** The share of the ring each member's tokens cover (what nodetool shows without a keyspace). */
    static Map<String, Float> ownership(ClusterOps c, boolean withPort) {
        TreeMap<Long, ClusterOps.Member> ring = ring(c);
        Map<String, BigDecimal> sum = new LinkedHashMap<>();
        Long previous = ring.isEmpty() ? null : ring.lastKey();
        for (var e : ring.entrySet()) {
            sum.merge(name(e.getValue(), withPort), width(previous, e.getKey(), ring.size()), BigDecimal::add);
            previous = e.getKey();
        }
        Map<String, Float> out = new LinkedHashMap<>();
        sum.forEach((k, v) -> out.put(k, v.floatValue()));
        return out;
    }

    /** The share of the ring each member replicates for a keyspace (its replicas counted). */
    static Map<String, Float> effectiveOwnership(ClusterOps c, String keyspace, boolean withPort) {
        TreeMap<Long, ClusterOps.Member> ring = ring(c);
        Map<String, BigDecimal> sum = new LinkedHashMap<>();
        for (ClusterOps.Member m : c.members()) {
            sum.put(name(m, withPort), BigDecimal.ZERO);
        }
        Long previous = ring.isEmpty() ? null : ring.lastKey();
        for (long token : ring.keySet()) {
            BigDecimal w = width(previous, token, ring.size());
            for (ClusterOps.Member r : c.replicas(keyspace, token)) {
                sum.merge(name(r, withPort), w, BigDecimal::add);
            }
            previous = token;
        }
        Map<String, Float> out = new LinkedHashMap<>();
        sum.forEach((k, v) -> out.put(k, v.floatValue()));
        return out;
    }

    static ClusterOps.Member find(ClusterOps c, String host) {
        if (host == null) {
            return null;
        }
        String h = host.startsWith("/") ? host.substring(1) : host;
        for (ClusterOps.Member m : c.members()) {
            if (h.equals(m.address()) || h.equals(m.endpointWithPort())) {
                return m;
            }
        }
        return null;
    }

    /** nodetool gossipinfo: each member's state as Cassandra's gossip shows it. */
    static String endpointStates(ClusterOps c, boolean withPort, String schemaVersion, long generation) {
        StringBuilder b = new StringBuilder();
        for (ClusterOps.Member m : c.members()) {
            b.append(state(m, withPort, schemaVersion, generation));
        }
        return b.toString();
    }

    static String state(ClusterOps.Member m, boolean withPort, String schemaVersion, long generation) {
        String status = switch (m.status()) {
            case "JOINING" -> "BOOT";
            case "LEAVING" -> "LEAVING";
            default -> "NORMAL";
        };
        return "/" + name(m, withPort) + "\n"
                + "  generation:" + generation + "\n"
                + "  STATUS:" + status + "," + (m.tokens().isEmpty() ? "" : m.tokens().get(0)) + "\n"
                + "  DC:" + m.datacenter() + "\n"
                + "  RACK:" + m.rack() + "\n"
                + "  RELEASE_VERSION:" + m.releaseVersion() + "\n"
                + "  HOST_ID:" + m.hostId() + "\n"
                + "  RPC_ADDRESS:" + m.rpcAddress() + "\n"
                + "  NATIVE_ADDRESS_AND_PORT:" + m.rpcAddress() + ":" + m.nativePort() + "\n"
                + "  SCHEMA:" + schemaVersion + "\n";
    }

    static Map<String, String> simpleStates(ClusterOps c, boolean withPort) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ClusterOps.Member m : c.members()) {
            out.put("/" + name(m, withPort), m.alive() ? "UP" : "DOWN");
        }
        return out;
    }
}
