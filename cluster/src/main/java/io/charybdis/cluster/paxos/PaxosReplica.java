package io.charybdis.cluster.paxos;

import io.charybdis.storage.CasResult;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * The acceptor side of Paxos on one node: what this replica has promised, accepted and committed for each partition
 * that saw a lightweight transaction, kept durably in a local table ({@code system.paxos}, as Cassandra keeps it)
 * whose partitions are keyed by the data table and partition key and live on the shard that owns the data's token.
 * Each step reads and rewrites the state with no other step on the same partition in between
 * ({@link Storage#atomically}), so it runs on the owning shard without locks.
 */
public final class PaxosReplica {
    /** The local table holding Paxos state; never replicated, never in the schema. */
    public static final TableId TABLE = TableId.of(0x63686172_70617873L, 0x0000_0000_0000_0001L);
    private static final byte[] ROW = {0x40};
    private static final int PROMISED = 0;
    private static final int ACCEPTED = 1;
    private static final int ACCEPTED_UPDATE = 2;
    private static final int COMMITTED = 3;
    private static final int COMMITTED_UPDATE = 4;

    private final Storage storage;

    public PaxosReplica(Storage storage) {
        this.storage = storage;
    }

    public static TableDescriptor descriptor() {
        return TableDescriptor.of(TABLE, "system", "paxos");
    }

    /** What the replica holds for one partition. Updates are null when the matching ballot is NONE. */
    public record State(Ballot promised, Ballot accepted, Mutation acceptedUpdate, Ballot committed,
                        Mutation committedUpdate, long lastTimestamp) {
        static final State EMPTY = new State(Ballot.NONE, Ballot.NONE, null, Ballot.NONE, null, Long.MIN_VALUE);
    }

    /**
     * The answer to a prepare: whether this replica promised, its state before the promise, and (a prepare with a
     * read, once promised) the partition as this replica read it right after promising; null otherwise.
     */
    public record Promise(boolean promised, State state, ReadResult read) {
        public Promise(boolean promised, State state) {
            this(promised, state, null);
        }

        /** Releases the read, if any. */
        public void releaseRead() {
            if (read != null) {
                read.release();
            }
        }
    }

    /**
     * Promises {@code ballot} as {@link #prepare} does and, if it did, reads {@code current} on this replica (the
     * prepare with read of Cassandra's Paxos v2: the proposer learns the promise and the data in one round trip).
     * The read runs on the partition's shard right after the promise.
     */
    public CompletableFuture<Promise> prepareAndRead(TableId table, long token, byte[] key, Ballot ballot,
                                                     ReadCommand current) {
        return prepare(table, token, key, ballot).thenCompose(p -> !p.promised() || current == null
                ? CompletableFuture.completedFuture(p)
                : storage.read(current).thenApply(r -> new Promise(true, p.state(), r)));
    }

    /** Promises {@code ballot} unless a later or equal ballot was promised already. */
    public CompletableFuture<Promise> prepare(TableId table, long token, byte[] key, Ballot ballot) {
        State[] before = new State[1];
        return step(table, token, key, s -> {
            before[0] = s;
            if (!ballot.after(s.promised)) {
                return null;
            }
            return builder(table, token, key, s).cell(PROMISED, ballot.bytes());
        }).thenApply(applied -> new Promise(applied, before[0]));
    }

    /** Accepts the proposal unless a later ballot was promised. */
    public CompletableFuture<Boolean> propose(TableId table, long token, byte[] key, Ballot ballot, Mutation update) {
        return step(table, token, key, s -> {
            if (s.promised.after(ballot)) {
                return null;
            }
            StateWriter w = builder(table, token, key, s);
            if (ballot.after(s.promised)) {
                w.cell(PROMISED, ballot.bytes());
            }
            return w.cell(ACCEPTED, ballot.bytes()).cell(ACCEPTED_UPDATE, bytes(update));
        });
    }

    /**
     * Applies a committed update to the data, then records the commit (a replica that fails between the two has the
     * proposal still accepted and newer than its last commit: the next proposer finishes it).
     */
    public CompletableFuture<Void> commit(TableId table, long token, byte[] key, Ballot ballot, Mutation update) {
        return storage.apply(update).thenCompose(v -> step(table, token, key, s -> {
            if (!ballot.after(s.committed)) {
                return null;
            }
            return builder(table, token, key, s).cell(COMMITTED, ballot.bytes()).cell(COMMITTED_UPDATE, bytes(update));
        })).thenApply(applied -> null);
    }

    private interface Step {
        StateWriter decide(State s);
    }

    private CompletableFuture<Boolean> step(TableId table, long token, byte[] key, Step step) {
        byte[] stateKey = stateKey(table, key);
        ReadCommand read = ReadCommand.partition(TABLE, token, stateKey).build();
        return storage.atomically(TABLE, token, stateKey, read, current -> {
            StateWriter w = step.decide(decode(current));
            return w == null ? null : w.build();
        }).thenApply(CasResult::applied);
    }

    static byte[] stateKey(TableId table, byte[] key) {
        return ByteBuffer.allocate(16 + key.length).putLong(table.msb()).putLong(table.lsb()).put(key).array();
    }

    private static byte[] bytes(Mutation m) {
        ByteBuffer b = m.asByteBuffer();
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    static State decode(ReadResult r) {
        ReadResult.Cursor c = r.cursor();
        if (!c.nextPartition() || !c.nextRow()) {
            return State.EMPTY;
        }
        Ballot promised = Ballot.NONE, accepted = Ballot.NONE, committed = Ballot.NONE;
        Mutation acceptedUpdate = null, committedUpdate = null;
        long last = Long.MIN_VALUE;
        while (c.nextCell()) {
            last = Math.max(last, c.timestamp());
            byte[] v = c.valueBytes();
            switch (c.columnId()) {
                case PROMISED -> promised = Ballot.of(v);
                case ACCEPTED -> accepted = Ballot.of(v);
                case ACCEPTED_UPDATE -> acceptedUpdate = mutation(v);
                case COMMITTED -> committed = Ballot.of(v);
                case COMMITTED_UPDATE -> committedUpdate = mutation(v);
                default -> { }
            }
        }
        return new State(promised, accepted, acceptedUpdate, committed, committedUpdate, last);
    }

    private static Mutation mutation(byte[] v) {
        return v.length == 0 ? null : Mutation.copyOf(new org.agrona.concurrent.UnsafeBuffer(v), 0, v.length);
    }

    private static StateWriter builder(TableId table, long token, byte[] key, State s) {
        long ts = Math.max(s.lastTimestamp + 1, System.currentTimeMillis() * 1000);
        return new StateWriter(new MutationBuilder().start(TABLE, token, stateKey(table, key)).beginRow(ROW)
                .rowMarker(ts, 0, 0), ts);
    }

    private record StateWriter(MutationBuilder b, long ts) {
        StateWriter cell(int column, byte[] value) {
            b.cell(column, ts, 0, 0, ByteBuffer.wrap(value));
            return this;
        }

        Mutation build() {
            return b.endRow().build();
        }
    }
}
