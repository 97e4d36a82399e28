package io.charybdis.cluster;

import io.charybdis.cluster.locator.NetworkTopologyStrategy;
import io.charybdis.cluster.locator.ReplicationStrategy;

/**
 * Cassandra's consistency levels and how many replica answers each waits for ({@link #blockFor}), computed from
 * the keyspace's replication as Cassandra computes it: quorums from the replication factor, not from the number of
 * nodes that happen to exist (a keyspace with replication factor 3 on one node cannot reach QUORUM).
 */
public enum ConsistencyLevel {
    ANY, ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, EACH_QUORUM, SERIAL, LOCAL_SERIAL, LOCAL_ONE;

    public boolean isSerial() {
        return this == SERIAL || this == LOCAL_SERIAL;
    }

    /** Counts only replicas in the coordinator's data centre. */
    public boolean isDatacenterLocal() {
        return this == LOCAL_ONE || this == LOCAL_QUORUM || this == LOCAL_SERIAL;
    }

    public int blockFor(ReplicationStrategy strategy, String localDatacenter) {
        return switch (this) {
            case ANY, ONE, LOCAL_ONE -> 1;
            case TWO -> 2;
            case THREE -> 3;
            case QUORUM, SERIAL -> quorum(strategy.replicationFactor());
            case ALL -> strategy.replicationFactor();
            case LOCAL_QUORUM, LOCAL_SERIAL -> strategy instanceof NetworkTopologyStrategy nts
                    ? quorum(nts.replicationFactor(localDatacenter)) : quorum(strategy.replicationFactor());
            case EACH_QUORUM -> {
                if (strategy instanceof NetworkTopologyStrategy nts) {
                    int n = 0;
                    for (int rf : nts.datacenters().values()) {
                        n += quorum(rf);
                    }
                    yield n;
                }
                yield quorum(strategy.replicationFactor());
            }
        };
    }

    static int quorum(int rf) {
        return rf / 2 + 1;
    }
}
