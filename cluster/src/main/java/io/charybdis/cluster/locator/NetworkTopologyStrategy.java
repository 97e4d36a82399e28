package io.charybdis.cluster.locator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replicas per data centre, spread over racks: Cassandra's NetworkTopologyStrategy.
 *
 * <p>Walking the ring clockwise from the token, each data centre with a replication factor takes endpoints until
 * it has {@code rf} of them (or all it has). An endpoint on a rack the DC already used is skipped while racks
 * remain unseen, unless the DC needs more replicas than it has racks (then up to {@code rf - racks} repeats are
 * taken as they come); once every rack of the DC is used, the skipped endpoints fill the remaining places in the
 * order they were met. This is the placement drivers reproduce for token-aware routing, so it must match.
 */
public record NetworkTopologyStrategy(Map<String, Integer> datacenters) implements ReplicationStrategy {
    public NetworkTopologyStrategy {
        datacenters = Map.copyOf(datacenters);
    }

    @Override
    public int replicationFactor() {
        int n = 0;
        for (int rf : datacenters.values()) {
            n += rf;
        }
        return n;
    }

    @Override
    public int replicationFactor(String datacenter) {
        return datacenters.getOrDefault(datacenter, 0);
    }

    @Override
    public List<Endpoint> replicas(long token, TokenRing ring, Endpoint self) {
        Map<String, Dc> dcs = new HashMap<>();
        Map<String, Set<String>> racks = new HashMap<>();
        Map<String, Integer> endpointsPerDc = new HashMap<>();
        for (Endpoint e : ring.endpoints()) {
            racks.computeIfAbsent(e.datacenter(), k -> new HashSet<>()).add(e.rack());
            endpointsPerDc.merge(e.datacenter(), 1, Integer::sum);
        }
        int pending = 0;
        for (Map.Entry<String, Integer> e : datacenters.entrySet()) {
            int have = endpointsPerDc.getOrDefault(e.getKey(), 0);
            int rf = Math.min(e.getValue(), have);
            if (rf > 0) {
                dcs.put(e.getKey(), new Dc(rf, racks.get(e.getKey()).size()));
                pending++;
            }
        }
        List<Endpoint> out = new ArrayList<>(replicationFactor());
        int start = ring.indexOf(token);
        for (int i = 0; i < ring.size() && pending > 0; i++) {
            Endpoint e = ring.owner((start + i) % ring.size());
            Dc dc = dcs.get(e.datacenter());
            if (dc == null || dc.done() || out.contains(e) || dc.skipped.contains(e)) {
                continue;
            }
            dc.offer(e, out);
            if (dc.done()) {
                pending--;
            }
        }
        return out;
    }

    /** Placement state of one data centre during a ring walk. */
    private static final class Dc {
        final int rf;
        final int rackCount;
        final Set<String> racksUsed = new HashSet<>();
        final ArrayDeque<Endpoint> skipped = new ArrayDeque<>();
        int taken;
        int acceptableRackRepeats;

        Dc(int rf, int rackCount) {
            this.rf = rf;
            this.rackCount = rackCount;
            this.acceptableRackRepeats = rf - rackCount;
        }

        boolean done() {
            return taken >= rf;
        }

        void offer(Endpoint e, List<Endpoint> out) {
            if (racksUsed.add(e.rack())) {
                take(e, out);
                if (racksUsed.size() == rackCount) {
                    while (!done() && !skipped.isEmpty()) {
                        take(skipped.poll(), out);
                    }
                }
                return;
            }
            if (acceptableRackRepeats <= 0) {
                skipped.add(e);
                return;
            }
            acceptableRackRepeats--;
            take(e, out);
        }

        private void take(Endpoint e, List<Endpoint> out) {
            out.add(e);
            taken++;
        }
    }
}
