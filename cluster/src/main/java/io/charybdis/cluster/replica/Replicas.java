package io.charybdis.cluster.replica;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.storage.Storage;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.read.ReadResultWire;
import io.charybdis.storage.shard.ShardRouting;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.CompletableFuture;

/**
 * The replica side of the data path between nodes, over {@link MessagingService}: a coordinator sends a MUTATION
 * or READ to the shard of the replica that owns the token, where it runs inline against that node's storage.
 *
 * <ul>
 *   <li>MUTATION: the request is the mutation's bytes ({@code MutationLayout}); the answer, empty, is sent once
 *       the mutation is in the commit log and memtable as the replica's sync mode promises.</li>
 *   <li>READ: the request is a {@link ReadCommandWire}; the answer a {@link ReadResultWire}.</li>
 *   <li>READ_DIGEST: the request is a {@link ReadCommandWire}; the answer the {@link ReadDigest} of the result
 *       (16 bytes), computed on the shard that read it.</li>
 *   <li>COUNTER_WRITE: the request is the consistency level's ordinal (a byte) then a counter update's delta
 *       mutation; the leader's answer is a status byte (0 done, 1 WriteTimeout, 2 Unavailable) then two ints
 *       (acknowledged and needed, or needed and alive).</li>
 * </ul>
 */
public final class Replicas {
    private final MessagingService messaging;
    private final io.charybdis.cluster.paxos.PaxosReplica paxosReplica;
    private final io.charybdis.cluster.paxos.PaxosMessages paxos;
    private final EpochGate gate;
    /** This node's load (live SSTable bytes) as last reported, -1 before the first report: ECHO answers carry it. */
    private final java.util.concurrent.atomic.AtomicLong load;
    private final java.util.concurrent.atomic.AtomicReference<CounterLeader> counterLeader;

    /** What leads the counter updates other coordinators send to this node (its coordinator). */
    @FunctionalInterface
    public interface CounterLeader {
        CompletableFuture<Void> lead(Mutation delta, io.charybdis.cluster.ConsistencyLevel cl);
    }

    /** Lets this node lead counter updates (COUNTER_WRITE); until then they are refused. */
    public void leadCountersWith(CounterLeader leader) {
        counterLeader.set(leader);
    }

    /** Data requests (MUTATION, READ, READ_DIGEST, READ_RAW, Paxos) from coordinators of an older placement epoch are refused. */
    public void refuseStaleCoordinators(java.util.function.LongSupplier placementEpoch) {
        gate.placementEpoch(placementEpoch);
    }

    private Replicas(MessagingService messaging, io.charybdis.cluster.paxos.PaxosReplica paxosReplica,
                     io.charybdis.cluster.paxos.PaxosMessages paxos, EpochGate gate,
                     java.util.concurrent.atomic.AtomicLong load,
                     java.util.concurrent.atomic.AtomicReference<CounterLeader> counterLeader) {
        this.counterLeader = counterLeader;
        this.messaging = messaging;
        this.load = load;
        this.gate = gate;
        this.paxosReplica = paxosReplica;
        this.paxos = paxos;
    }

    /** This node's Paxos acceptor (its state is in the local table system.paxos). */
    public io.charybdis.cluster.paxos.PaxosReplica paxosReplica() {
        return paxosReplica;
    }

    /**
     * Sets the load this node reports (live SSTable bytes on disk): every ECHO probe of the failure detector is
     * answered with it, so each member knows the others' loads ({@code nodetool status}) without a gossip of its own.
     */
    public void reportLoad(long bytes) {
        load.set(bytes);
    }

    /** Paxos messages to other nodes' acceptors. */
    public io.charybdis.cluster.paxos.PaxosMessages paxos() {
        return paxos;
    }

    /** Serves MUTATION, READ, READ_DIGEST, READ_RAW and the Paxos verbs on this node's storage, and sends them to other nodes. */
    public static Replicas serve(MessagingService messaging, Storage storage) {
        EpochGate gate = new EpochGate();
        java.util.concurrent.atomic.AtomicLong load = new java.util.concurrent.atomic.AtomicLong(-1);
        messaging.handle(Verb.ECHO, (payload, shard, epoch, sender) -> // liveness probes: answered with the load
                CompletableFuture.completedFuture(payload.readableBytes() == 0 && load.get() >= 0
                        ? Unpooled.copyLong(load.get()) : Unpooled.EMPTY_BUFFER));
        messaging.handle(Verb.MUTATION, (payload, shard, epoch, sender) -> {
            CompletableFuture<ByteBuf> refused = gate.refuse(epoch);
            if (refused != null) {
                return refused;
            }
            byte[] bytes = new byte[payload.readableBytes()];
            payload.readBytes(bytes);
            Mutation m = Mutation.copyOf(new org.agrona.concurrent.UnsafeBuffer(bytes), 0, bytes.length);
            return storage.apply(m).thenApply(v -> Unpooled.EMPTY_BUFFER);
        });
        var counterLeader = new java.util.concurrent.atomic.AtomicReference<CounterLeader>();
        messaging.handle(Verb.COUNTER_WRITE, (payload, shard, epoch, sender) -> {
            CompletableFuture<ByteBuf> refused = gate.refuse(epoch);
            if (refused != null) {
                return refused;
            }
            CounterLeader leader = counterLeader.get();
            if (leader == null) {
                return CompletableFuture.failedFuture(new IllegalStateException("this node does not lead counter "
                        + "updates yet (starting)"));
            }
            io.charybdis.cluster.ConsistencyLevel cl = io.charybdis.cluster.ConsistencyLevel.values()[payload.readByte()];
            byte[] bytes = new byte[payload.readableBytes()];
            payload.readBytes(bytes);
            Mutation delta = Mutation.copyOf(new org.agrona.concurrent.UnsafeBuffer(bytes), 0, bytes.length);
            return leader.lead(delta, cl).handle((v, t) -> {
                Throwable cause = t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                        ? t.getCause() : t;
                if (cause == null) {
                    return Unpooled.buffer(9).writeByte(0).writeInt(0).writeInt(0);
                }
                if (cause instanceof io.charybdis.cluster.WriteTimeoutException w) {
                    return Unpooled.buffer(9).writeByte(1).writeInt(w.received()).writeInt(w.blockFor());
                }
                if (cause instanceof io.charybdis.cluster.UnavailableException u) {
                    return Unpooled.buffer(9).writeByte(2).writeInt(u.required()).writeInt(u.alive());
                }
                throw new java.util.concurrent.CompletionException(cause);
            });
        });
        messaging.handle(Verb.READ, (payload, shard, epoch, sender) -> {
            CompletableFuture<ByteBuf> refused = gate.refuse(epoch);
            if (refused != null) {
                return refused;
            }
            ReadCommand c = ReadCommandWire.read(payload);
            return storage.read(c).thenApply(r -> {
                ByteBuf out = Unpooled.wrappedBuffer(ReadResultWire.encode(r));
                r.release();
                return out;
            });
        });
        messaging.handle(Verb.READ_DIGEST, (payload, shard, epoch, sender) -> {
            CompletableFuture<ByteBuf> refused = gate.refuse(epoch);
            if (refused != null) {
                return refused;
            }
            ReadCommand c = ReadCommandWire.read(payload);
            return storage.read(c).thenApply(r -> {
                byte[] digest = ReadDigest.of(r);
                r.release();
                return Unpooled.wrappedBuffer(digest);
            });
        });
        messaging.handle(Verb.READ_RAW, (payload, shard, epoch, sender) -> {
            CompletableFuture<ByteBuf> refused = gate.refuse(epoch);
            if (refused != null) {
                return refused;
            }
            io.charybdis.storage.TableId table = io.charybdis.storage.TableId.of(payload.readLong(), payload.readLong());
            long token = payload.readLong();
            byte[] key = new byte[payload.readInt()];
            payload.readBytes(key);
            return storage.readRawPartition(table, token, key).thenApply(m -> m == null ? Unpooled.EMPTY_BUFFER
                    : Unpooled.wrappedBuffer(m.asByteBuffer()));
        });
        messaging.handle(Verb.TRUNCATE, (payload, shard, epoch, sender) -> {
            io.charybdis.storage.TableId table = io.charybdis.storage.TableId.of(payload.readLong(), payload.readLong());
            return storage.truncate(table).thenApply(v -> Unpooled.EMPTY_BUFFER);
        });
        storage.registerTable(io.charybdis.cluster.paxos.PaxosReplica.descriptor()); // idempotent
        var paxosReplica = new io.charybdis.cluster.paxos.PaxosReplica(storage);
        return new Replicas(messaging, paxosReplica, io.charybdis.cluster.paxos.PaxosMessages.serve(messaging,
                paxosReplica, gate), gate, load, counterLeader);
    }

    /** Truncates a table on a remote node; completes when it has. */
    public CompletableFuture<Void> truncate(Endpoint node, io.charybdis.storage.TableId table, long timeoutMillis) {
        ByteBuf payload = Unpooled.buffer(16).writeLong(table.msb()).writeLong(table.lsb());
        return messaging.send(node.storageAddress(), 0, Verb.TRUNCATE, payload, timeoutMillis).thenApply(answer -> {
            answer.release();
            return null;
        });
    }

    /** The whole partition as a remote replica holds it (null: nothing), to reconcile and repair replicas. */
    public CompletableFuture<Mutation> readRaw(Endpoint replica, io.charybdis.storage.TableId table, long token, byte[] key,
                                               long timeoutMillis) {
        ByteBuf payload = Unpooled.buffer(28 + key.length);
        payload.writeLong(table.msb()).writeLong(table.lsb()).writeLong(token).writeInt(key.length).writeBytes(key);
        return messaging.send(replica.storageAddress(), ShardRouting.shardOf(token, replica.shards()), Verb.READ_RAW,
                payload, timeoutMillis).thenApply(answer -> {
                    try {
                        if (answer.readableBytes() == 0) {
                            return null;
                        }
                        byte[] bytes = new byte[answer.readableBytes()];
                        answer.readBytes(bytes);
                        return Mutation.copyOf(new org.agrona.concurrent.UnsafeBuffer(bytes), 0, bytes.length);
                    } finally {
                        answer.release();
                    }
                });
    }

    /**
     * Sends a counter update to the replica that leads it; completes when the leader has met {@code cl}, or fails
     * with the leader's WriteTimeout (type COUNTER) or Unavailable, or the messaging failure.
     */
    public CompletableFuture<Void> counterWrite(Endpoint leader, Mutation delta, io.charybdis.cluster.ConsistencyLevel cl,
                                                long timeoutMillis) {
        ByteBuf payload = Unpooled.buffer(1 + delta.serializedSize());
        payload.writeByte(cl.ordinal());
        payload.writeBytes(delta.asByteBuffer());
        return messaging.send(leader.storageAddress(), ShardRouting.shardOf(delta.token(), leader.shards()),
                Verb.COUNTER_WRITE, payload, timeoutMillis).thenApply(answer -> {
                    try {
                        byte status = answer.readByte();
                        int a = answer.readInt();
                        int b = answer.readInt();
                        if (status == 1) {
                            throw new io.charybdis.cluster.WriteTimeoutException(cl, a, b,
                                    io.charybdis.cluster.WriteTimeoutException.WriteType.COUNTER);
                        }
                        if (status == 2) {
                            throw new io.charybdis.cluster.UnavailableException(cl, a, b);
                        }
                        if (status != 0) {
                            throw new IllegalStateException("unknown counter leader status " + status);
                        }
                        return (Void) null;
                    } finally {
                        answer.release();
                    }
                });
    }

    /** Applies a mutation on a remote replica; completes when it has acknowledged. */
    public CompletableFuture<Void> apply(Endpoint replica, Mutation m, long timeoutMillis) {
        int n = m.serializedSize();
        ByteBuf payload = Unpooled.buffer(n);
        payload.writeBytes(m.asByteBuffer());
        return messaging.send(replica.storageAddress(), ShardRouting.shardOf(m.token(), replica.shards()), Verb.MUTATION,
                payload, timeoutMillis).thenApply(answer -> {
                    answer.release();
                    return null;
                });
    }

    /** The digest of what a single-partition read returns on a remote replica ({@link ReadDigest}). */
    public CompletableFuture<byte[]> digest(Endpoint replica, ReadCommand c, long timeoutMillis) {
        ByteBuf payload = Unpooled.buffer(128);
        ReadCommandWire.write(c, payload);
        return messaging.send(replica.storageAddress(), ShardRouting.shardOf(c.token(), replica.shards()),
                Verb.READ_DIGEST, payload, timeoutMillis).thenApply(answer -> {
                    try {
                        if (answer.readableBytes() != ReadDigest.LENGTH) {
                            throw new IllegalStateException("a READ_DIGEST answer of " + answer.readableBytes()
                                    + " bytes from replica=" + replica + ", expected " + ReadDigest.LENGTH);
                        }
                        byte[] digest = new byte[ReadDigest.LENGTH];
                        answer.readBytes(digest);
                        return digest;
                    } finally {
                        answer.release();
                    }
                });
    }

    /** Reads from a remote replica (a range read goes to its shard 0, which merges its shards). */
    public CompletableFuture<ReadResult> read(Endpoint replica, ReadCommand c, long timeoutMillis) {
        ByteBuf payload = Unpooled.buffer(128);
        ReadCommandWire.write(c, payload);
        int shard = c.isSinglePartition() ? ShardRouting.shardOf(c.token(), replica.shards()) : 0;
        return messaging.send(replica.storageAddress(), shard, Verb.READ, payload, timeoutMillis).thenApply(answer -> {
            try {
                byte[] bytes = new byte[answer.readableBytes()];
                answer.readBytes(bytes);
                return ReadResultWire.decode(bytes);
            } finally {
                answer.release();
            }
        });
    }
}
