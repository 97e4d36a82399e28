package io.charybdis.cluster.messaging;

/**
 * What an internode request asks for. The code is on the wire: never reuse one. Each verb has one handler per
 * node, registered with {@link MessagingService#handle}; a request for a verb without a handler is answered with
 * a failure naming it.
 */
public enum Verb {
    /** Answers with its payload: liveness probes and tests. */
    ECHO(1),
    /** Applies a mutation on the replica (cluster.replica.Replicas). */
    MUTATION(2),
    /** Reads on the replica (cluster.replica.Replicas). */
    READ(3),
    /** Answers with the address of this node's cluster metadata member (how a joining node finds its seeds'). */
    METADATA_ADDRESS(4),
    /** Answers with the whole partition as the replica holds it, unfiltered (read reconciliation and repair). */
    READ_RAW(5),
    /**
     * Reads on the replica and answers with the digest of the result instead of the result (digest reads: one
     * replica sends the data, the others a digest to compare it with). A peer that predates it answers with a
     * failure naming the verb; the coordinator then asks it for the data and digests that itself.
     */
    READ_DIGEST(6),
    /** Leads a counter update: the replica adds the deltas to its own shards and replicates them (cluster.counters). */
    COUNTER_WRITE(10),
    /** Paxos phase 1: promise a ballot, answer the replica's accepted and committed proposals (cluster.paxos). */
    PAXOS_PREPARE(20),
    /** Paxos phase 2: accept a proposal unless a later ballot was promised. */
    PAXOS_PROPOSE(21),
    /** Paxos commit: apply the accepted update to the data and record it as committed. */
    PAXOS_COMMIT(22),
    /** Answers with one page of the partitions a shard holds in a token range, whole (streaming, repair). */
    STREAM_PAGE(32),
    /** Asks a node to fetch token ranges of a table from other nodes, page by page; answered when it has them all. */
    STREAM_FETCH(33),
    /** Answers with the Merkle tree leaves of a token range of a table (repair). */
    REPAIR_TREE(34),
    /** Answers with the cluster metadata epoch this node has applied (progress barriers of topology changes). */
    METADATA_EPOCH(35),
    /** Removes every row of a table on the replica (TRUNCATE across nodes; cluster.replica.Replicas). */
    TRUNCATE(40);

    private static final Verb[] BY_CODE = new Verb[64];

    static {
        for (Verb v : values()) {
            BY_CODE[v.code] = v;
        }
    }

    private final int code;

    Verb(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The verb of a wire code, or null for one this node does not know (a newer peer's). */
    public static Verb of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
