package io.charybdis.cluster.metadata;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;

/**
 * Applies the metadata log (Ratis calls it on its own apply thread, in log order, on every member) and publishes
 * each new {@link MetadataState}. The reply to a command is empty when it was applied, else the reason it was
 * refused. The state is snapshotted to one file (its {@link MetadataState#snapshot()} bytes, with Ratis' MD5 file
 * beside it) every {@link MetadataService#SNAPSHOT_EVERY} entries, the log before it is purged, a restart loads the
 * latest snapshot and replays only what follows, and a member too far behind is sent the snapshot by the leader.
 */
final class MetadataStateMachine extends BaseStateMachine {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MetadataStateMachine.class);
    private final Consumer<MetadataState> listener;
    private volatile MetadataState state = MetadataState.EMPTY;
    private final java.util.concurrent.ConcurrentSkipListMap<Long, CompletableFuture<Void>> waiters =
            new java.util.concurrent.ConcurrentSkipListMap<>();

    /** Completes once this member has applied the log through {@code index}. */
    CompletableFuture<Void> appliedThrough(long index) {
        if (state.epoch() >= index) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> f = waiters.computeIfAbsent(index, i -> new CompletableFuture<>());
        if (state.epoch() >= index) {
            f.complete(null);
        }
        return f;
    }

    private final org.apache.ratis.statemachine.impl.SimpleStateMachineStorage snapshots =
            new org.apache.ratis.statemachine.impl.SimpleStateMachineStorage();

    MetadataStateMachine(Consumer<MetadataState> listener) {
        this.listener = listener;
    }

    @Override
    public void initialize(org.apache.ratis.server.RaftServer server, org.apache.ratis.protocol.RaftGroupId groupId,
                           org.apache.ratis.server.storage.RaftStorage raftStorage) throws java.io.IOException {
        super.initialize(server, groupId, raftStorage);
        snapshots.init(raftStorage);
        load(snapshots.loadLatestSnapshot());
    }

    @Override
    public void reinitialize() throws java.io.IOException {
        load(snapshots.loadLatestSnapshot()); // after the leader installed a snapshot here
    }

    @Override
    public org.apache.ratis.statemachine.StateMachineStorage getStateMachineStorage() {
        return snapshots;
    }

    @Override
    public org.apache.ratis.statemachine.SnapshotInfo getLatestSnapshot() {
        return snapshots.getLatestSnapshot();
    }

    /** Writes the state as of the last applied entry (Ratis calls it between applies, on the apply thread). */
    @Override
    public long takeSnapshot() throws java.io.IOException {
        org.apache.ratis.server.protocol.TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) {
            return -1;
        }
        java.io.File file = snapshots.getSnapshotFile(last.getTerm(), last.getIndex());
        java.nio.file.Path tmp = file.toPath().resolveSibling(file.getName() + ".tmp");
        java.nio.file.Files.write(tmp, state.snapshot());
        java.nio.file.Files.move(tmp, file.toPath(), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        org.apache.ratis.io.MD5Hash md5 = org.apache.ratis.util.MD5FileUtil.computeAndSaveMd5ForFile(file);
        snapshots.updateLatestSnapshot(new org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo(
                new org.apache.ratis.server.storage.FileInfo(file.toPath(), md5), last));
        snapshots.cleanupOldSnapshots(new org.apache.ratis.statemachine.SnapshotRetentionPolicy() {
            @Override
            public int getNumSnapshotsRetained() {
                return 2; // the latest two
            }
        });
        LOG.info("cluster metadata snapshot at index {} (epoch {})", last.getIndex(), state.epoch());
        return last.getIndex();
    }

    private void load(org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo snapshot) throws java.io.IOException {
        if (snapshot == null) {
            return;
        }
        java.nio.file.Path file = snapshot.getFile().getPath();
        org.apache.ratis.io.MD5Hash expected = snapshot.getFile().getFileDigest();
        if (expected != null && !expected.equals(org.apache.ratis.util.MD5FileUtil.computeMd5ForFile(file.toFile()))) {
            throw new java.io.IOException("cluster metadata snapshot " + file + " does not match its MD5");
        }
        MetadataState loaded = MetadataState.fromSnapshot(java.nio.file.Files.readAllBytes(file));
        state = loaded;
        updateLastAppliedTermIndex(snapshot.getTerm(), snapshot.getIndex());
        listener.accept(loaded);
    }

    MetadataState state() {
        return state;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        byte[] command = entry.getStateMachineLogEntry().getLogData().toByteArray();
        MetadataState.Applied applied = state.apply(entry.getIndex(), command);
        state = applied.state();
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        try {
            listener.accept(applied.state());
        } catch (RuntimeException | Error e) {
            // the log is the truth and stays applied; a member that cannot follow it says so loudly
            LOG.error("applying cluster metadata epoch={} on this node failed", entry.getIndex(), e);
        }
        var done = waiters.headMap(entry.getIndex(), true);
        done.values().forEach(f -> f.complete(null));
        done.clear();
        String reply = applied.rejection() == null ? "" : applied.rejection();
        return CompletableFuture.completedFuture(Message.valueOf(reply.isEmpty()
                ? org.apache.ratis.thirdparty.com.google.protobuf.ByteString.EMPTY
                : org.apache.ratis.thirdparty.com.google.protobuf.ByteString.copyFrom(reply, StandardCharsets.UTF_8)));
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        return CompletableFuture.completedFuture(Message.valueOf(
                org.apache.ratis.thirdparty.com.google.protobuf.ByteString.copyFrom(state.snapshot())));
    }
}
