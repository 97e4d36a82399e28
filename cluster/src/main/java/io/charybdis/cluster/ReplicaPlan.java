package io.charybdis.cluster;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.ReplicationStrategy;
import java.util.List;

/**
 * The replicas one request goes to and how many answers it waits for, checked against liveness before anything
 * is sent (Cassandra's ReplicaPlan): too few live replicas is an {@link UnavailableException} at once.
 */
public record ReplicaPlan(List<Endpoint> replicas, List<Endpoint> live, int blockFor, ConsistencyLevel consistency) {

    static ReplicaPlan of(List<Endpoint> replicas, ReplicationStrategy strategy, ConsistencyLevel cl,
                          Endpoint self, Liveness liveness, boolean write) {
        List<Endpoint> live = replicas;
        for (Endpoint e : replicas) {
            if (!liveness.isAlive(e)) {
                live = replicas.stream().filter(liveness::isAlive).toList();
                break;
            }
        }
        int blockFor = cl.blockFor(strategy, self.datacenter());
        if (cl == ConsistencyLevel.ANY && write) {
            return new ReplicaPlan(replicas, live, 1, cl); // a hint on the coordinator is enough
        }
        if (cl.isDatacenterLocal()) {
            int localLive = 0;
            for (Endpoint e : live) {
                if (e.datacenter().equals(self.datacenter())) {
                    localLive++;
                }
            }
            if (localLive < blockFor) {
                throw new UnavailableException(cl, blockFor, localLive);
            }
        } else if (cl == ConsistencyLevel.EACH_QUORUM
                && strategy instanceof io.charybdis.cluster.locator.NetworkTopologyStrategy nts) {
            for (var dc : nts.datacenters().entrySet()) {
                int need = ConsistencyLevel.quorum(dc.getValue());
                int dcLive = 0;
                for (Endpoint e : live) {
                    if (e.datacenter().equals(dc.getKey())) {
                        dcLive++;
                    }
                }
                if (dcLive < need) {
                    // Cassandra 5.0 reports 0 alive here whatever the data centre's live count (its
                    // ReplicaPlans passes the live count where the required full count goes): clients see that
                    throw new UnavailableException("Cannot achieve consistency level " + cl + " in DC " + dc.getKey(),
                            cl, need, 0);
                }
            }
        } else if (live.size() < blockFor) {
            throw new UnavailableException(cl, blockFor, live.size());
        }
        return new ReplicaPlan(replicas, live, blockFor, cl);
    }

    /**
     * The live replicas whose answers count towards the level: those of this node's data centre for LOCAL_ONE,
     * LOCAL_QUORUM and LOCAL_SERIAL, all live ones otherwise; this node first when it is one of them.
     */
    public List<Endpoint> counted(Endpoint self) {
        List<Endpoint> out = new java.util.ArrayList<>(live.size());
        if (live.contains(self)) {
            out.add(self);
        }
        for (Endpoint e : live) {
            if (!e.equals(self) && counts(e, self)) {
                out.add(e);
            }
        }
        return out;
    }

    /** How many of the live replicas count towards the level ({@link #counted}'s size, without the list). */
    public int countedSize(Endpoint self) {
        if (!consistency.isDatacenterLocal()) {
            return live.size();
        }
        int n = 0;
        for (Endpoint e : live) {
            if (counts(e, self)) {
                n++;
            }
        }
        return n;
    }

    /** Whether an answer of {@code e} counts towards the level. */
    public boolean counts(Endpoint e, Endpoint self) {
        return !consistency.isDatacenterLocal() || e.datacenter().equals(self.datacenter());
    }

    /**
     * A write to the natural replicas and to pending ones (nodes that join or take over a range): as in Cassandra,
     * each pending replica adds one to the acknowledgements needed, so the write meets its consistency level on the
     * replicas of the old ring and of the new one alike.
     */
    static ReplicaPlan withPending(List<Endpoint> natural, List<Endpoint> pending, ReplicationStrategy strategy,
                                   ConsistencyLevel cl, Endpoint self, Liveness liveness) {
        ReplicaPlan p = of(natural, strategy, cl, self, liveness, true);
        List<Endpoint> all = new java.util.ArrayList<>(natural);
        all.addAll(pending);
        List<Endpoint> live = new java.util.ArrayList<>(p.live());
        for (Endpoint e : pending) {
            if (liveness.isAlive(e)) {
                live.add(e);
            }
        }
        int blockFor = cl == ConsistencyLevel.ANY ? 1 : p.blockFor() + pending.size();
        if (live.size() < blockFor) {
            throw new UnavailableException(cl, blockFor, live.size());
        }
        return new ReplicaPlan(List.copyOf(all), List.copyOf(live), blockFor, cl);
    }

    /** True when the only replica to ask is this node. */
    boolean isLocalOnly(Endpoint self) {
        return live.size() == 1 && live.get(0).equals(self);
    }
}
