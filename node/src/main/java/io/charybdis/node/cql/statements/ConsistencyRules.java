package io.charybdis.node.cql.statements;

import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.schema.TableMetadata;

/**
 * Which consistency levels each kind of statement accepts, with Cassandra 5.0's messages (checked before anything
 * is read or written): reads refuse ANY (SERIAL reads of ranges and IN are accepted); single statements refuse
 * SERIAL levels unless conditional, counters also ANY; conditional statements need a SERIAL level for the
 * condition and another for the commit (EACH_QUORUM only under NetworkTopologyStrategy). Unconditional batches
 * are not checked at all, as in Cassandra.
 */
final class ConsistencyRules {
    private ConsistencyRules() {
    }

    static void forRead(ConsistencyLevel cl) {
        if (cl == ConsistencyLevel.ANY) {
            throw new InvalidRequestException("ANY ConsistencyLevel is only supported for writes");
        }
    }

    static void forWrite(ConsistencyLevel cl) {
        if (cl.isSerial()) {
            throw new InvalidRequestException("You must use conditional updates for serializable writes");
        }
    }

    static void forCounterWrite(ConsistencyLevel cl, TableMetadata table) {
        if (cl == ConsistencyLevel.ANY) {
            throw new InvalidRequestException("Consistency level ANY is not yet supported for counter table "
                    + table.name());
        }
        if (cl.isSerial()) {
            throw new InvalidRequestException("Counter operations are inherently non-serializable");
        }
    }

    static void forConditional(ConsistencyLevel serial, ConsistencyLevel commit, String strategyClass) {
        if (!serial.isSerial()) {
            throw new InvalidRequestException("Invalid consistency for conditional update. Must be one of SERIAL or "
                    + "LOCAL_SERIAL");
        }
        if (commit.isSerial()) {
            throw new InvalidRequestException(commit + " is not supported as conditional update commit consistency. "
                    + "Use ANY if you mean \"make sure it is accepted but I don't care how many replicas commit it for "
                    + "non-SERIAL reads\"");
        }
        if (commit == ConsistencyLevel.EACH_QUORUM
                && !strategyClass.equals(io.charybdis.cluster.locator.ReplicationStrategy.NETWORK_TOPOLOGY)) {
            throw new InvalidRequestException("consistency level EACH_QUORUM not compatible with replication strategy ("
                    + strategyClass + ")");
        }
    }
}
