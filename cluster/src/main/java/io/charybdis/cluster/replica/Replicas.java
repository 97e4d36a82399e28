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
 * </ul>
 */
public final class Replicas {
    private final MessagingService messaging;
    private final io.charybdis.cluster.paxos.PaxosReplica paxosReplica;
    private final io.charybdis.cluster.paxos.PaxosMessages paxos;
    private final EpochGate gate;

    /** Data requests (MUTATION, READ, READ_DIGEST, READ_RAW, Paxos) from coordinators of an older placement epoch are refused. */
    public void refuseStaleCoordinators(java.util.function.LongSupplier placementEpoch) {
        gate.placementEpoch(placementEpoch);
    }

    private Replicas(MessagingService messaging, io.charybdis.cluster.paxos.PaxosReplica paxosReplica,
                     io.charybdis.cluster.paxos.PaxosMessages paxos, EpochGate gate) {
        this.messaging = messaging;
        this.gate = gate;
        this.paxosReplica = paxosReplica;
        this.paxos = paxos;
    }

    /** This node's Paxos acceptor (its state is in the local table system.paxos). */
    public io.charybdis.cluster.paxos.PaxosReplica paxosReplica() {
        return paxosReplica;
    }

    /** Paxos messages to other nodes' acceptors. */
    public io.charybdis.cluster.paxos.PaxosMessages paxos() {
        return paxos;
    }

    /** Serves MUTATION, READ, READ_DIGEST, READ_RAW and the Paxos verbs on this node's storage, and sends them to other nodes. */
    public static Replicas serve(MessagingService messaging, Storage storage) {
        EpochGate gate = new EpochGate();
        messaging.handle(Verb.ECHO, (payload, shard, epoch, sender) ->
                CompletableFuture.completedFuture(Unpooled.EMPTY_BUFFER)); // liveness probes
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
                paxosReplica, gate), gate);
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
