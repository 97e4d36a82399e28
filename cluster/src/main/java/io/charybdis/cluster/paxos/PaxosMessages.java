package io.charybdis.cluster.paxos;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.shard.ShardRouting;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.CompletableFuture;

/**
 * Paxos between nodes: PAXOS_PREPARE, PAXOS_PROPOSE and PAXOS_COMMIT, each sent to the shard of the replica that owns
 * the partition's token and served there by the node's {@link PaxosReplica}.
 *
 * <p>Every request starts with the data table (16 bytes), the token, the partition key (length and bytes) and the
 * ballot (16 bytes); PROPOSE and COMMIT then carry the update's bytes. PREPARE answers a byte (promised or not) and
 * the replica's promised, accepted and committed ballots with the two updates (length, 0 for none, then bytes);
 * PROPOSE answers a byte; COMMIT an empty payload once the update is applied. A PREPARE may carry, after the head, a
 * flag and a read command (Paxos v2's prepare with read): a replica that promises then answers, after its state, a
 * flag and the partition as it read it (length and {@code ReadResultWire} bytes). A peer that does not know the
 * trailing part ignores it, and its answer has none: the proposer then reads in a round of its own.
 */
public final class PaxosMessages {
    private final MessagingService messaging;

    private PaxosMessages(MessagingService messaging) {
        this.messaging = messaging;
    }

    /** Serves the three verbs from {@code replica} and sends them to other nodes. */
    public static PaxosMessages serve(MessagingService messaging, PaxosReplica replica,
                                      io.charybdis.cluster.replica.EpochGate gate) {
        messaging.handle(Verb.PAXOS_PREPARE, (in, shard, epoch, sender) -> {
            CompletableFuture<ByteBuf> refused = gate.refuse(epoch);
            if (refused != null) {
                return refused;
            }
            Head h = Head.read(in);
            io.charybdis.storage.read.ReadCommand current = in.isReadable() && in.readBoolean()
                    ? io.charybdis.cluster.replica.ReadCommandWire.read(in) : null;
            return replica.prepareAndRead(h.table, h.token, h.key, h.ballot, current).thenApply(p -> {
                ByteBuf out = Unpooled.buffer(64);
                out.writeBoolean(p.promised());
                PaxosReplica.State s = p.state();
                s.promised().write(out);
                s.accepted().write(out);
                writeMutation(out, s.acceptedUpdate());
                s.committed().write(out);
                writeMutation(out, s.committedUpdate());
                out.writeBoolean(p.read() != null);
                if (p.read() != null) {
                    byte[] read = io.charybdis.storage.read.ReadResultWire.encode(p.read());
                    p.releaseRead();
                    out.writeInt(read.length).writeBytes(read);
                }
                return out;
            });
        });
        messaging.handle(Verb.PAXOS_PROPOSE, (in, shard, epoch, sender) -> {
            CompletableFuture<ByteBuf> refused = gate.refuse(epoch);
            if (refused != null) {
                return refused;
            }
            Head h = Head.read(in);
            Mutation update = readMutation(in);
            return replica.propose(h.table, h.token, h.key, h.ballot, update)
                    .thenApply(ok -> Unpooled.buffer(1).writeBoolean(ok));
        });
        messaging.handle(Verb.PAXOS_COMMIT, (in, shard, epoch, sender) -> {
            CompletableFuture<ByteBuf> refused = gate.refuse(epoch);
            if (refused != null) {
                return refused;
            }
            Head h = Head.read(in);
            Mutation update = readMutation(in);
            return replica.commit(h.table, h.token, h.key, h.ballot, update).thenApply(v -> Unpooled.EMPTY_BUFFER);
        });
        return new PaxosMessages(messaging);
    }

    public CompletableFuture<PaxosReplica.Promise> prepare(Endpoint replica, TableId table, long token, byte[] key,
                                                           Ballot ballot, long timeoutMillis) {
        return prepare(replica, table, token, key, ballot, null, timeoutMillis);
    }

    /** A prepare that, if the replica promises, also reads {@code current} there (null: no read). */
    public CompletableFuture<PaxosReplica.Promise> prepare(Endpoint replica, TableId table, long token, byte[] key,
                                                           Ballot ballot, io.charybdis.storage.read.ReadCommand current,
                                                           long timeoutMillis) {
        ByteBuf out = head(table, token, key, ballot, current == null ? 0 : 129);
        if (current != null) {
            out.writeBoolean(true);
            io.charybdis.cluster.replica.ReadCommandWire.write(current, out);
        }
        return send(replica, token, Verb.PAXOS_PREPARE, out, timeoutMillis).thenApply(in -> {
            try {
                boolean promised = in.readBoolean();
                Ballot p = Ballot.read(in);
                Ballot a = Ballot.read(in);
                Mutation au = readMutation(in);
                Ballot c = Ballot.read(in);
                Mutation cu = readMutation(in);
                io.charybdis.storage.read.ReadResult read = null;
                if (in.isReadable() && in.readBoolean()) {
                    byte[] bytes = new byte[in.readInt()];
                    in.readBytes(bytes);
                    read = io.charybdis.storage.read.ReadResultWire.decode(bytes);
                }
                return new PaxosReplica.Promise(promised, new PaxosReplica.State(p, a, au, c, cu, Long.MIN_VALUE), read);
            } finally {
                in.release();
            }
        });
    }

    public CompletableFuture<Boolean> propose(Endpoint replica, TableId table, long token, byte[] key, Ballot ballot,
                                              Mutation update, long timeoutMillis) {
        ByteBuf out = head(table, token, key, ballot, update.serializedSize() + 4);
        writeMutation(out, update);
        return send(replica, token, Verb.PAXOS_PROPOSE, out, timeoutMillis).thenApply(in -> {
            try {
                return in.readBoolean();
            } finally {
                in.release();
            }
        });
    }

    public CompletableFuture<Void> commit(Endpoint replica, TableId table, long token, byte[] key, Ballot ballot,
                                          Mutation update, long timeoutMillis) {
        ByteBuf out = head(table, token, key, ballot, update.serializedSize() + 4);
        writeMutation(out, update);
        return send(replica, token, Verb.PAXOS_COMMIT, out, timeoutMillis).thenApply(in -> {
            in.release();
            return null;
        });
    }

    private CompletableFuture<ByteBuf> send(Endpoint replica, long token, Verb verb, ByteBuf payload, long timeoutMillis) {
        return messaging.send(replica.storageAddress(), ShardRouting.shardOf(token, replica.shards()), verb, payload,
                timeoutMillis);
    }

    private static ByteBuf head(TableId table, long token, byte[] key, Ballot ballot, int extra) {
        ByteBuf out = Unpooled.buffer(44 + key.length + extra);
        out.writeLong(table.msb()).writeLong(table.lsb()).writeLong(token).writeInt(key.length).writeBytes(key);
        ballot.write(out);
        return out;
    }

    private record Head(TableId table, long token, byte[] key, Ballot ballot) {
        static Head read(ByteBuf in) {
            TableId table = TableId.of(in.readLong(), in.readLong());
            long token = in.readLong();
            byte[] key = new byte[in.readInt()];
            in.readBytes(key);
            return new Head(table, token, key, Ballot.read(in));
        }
    }

    private static void writeMutation(ByteBuf out, Mutation m) {
        if (m == null) {
            out.writeInt(0);
            return;
        }
        out.writeInt(m.serializedSize());
        out.writeBytes(m.asByteBuffer());
    }

    private static Mutation readMutation(ByteBuf in) {
        int n = in.readInt();
        if (n == 0) {
            return null;
        }
        byte[] b = new byte[n];
        in.readBytes(b);
        return Mutation.copyOf(new org.agrona.concurrent.UnsafeBuffer(b), 0, n);
    }
}
