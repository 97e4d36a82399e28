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
 * refused. No snapshots yet: the log is kept whole and replayed at restart (it holds a handful of entries per
 * membership change).
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

    MetadataStateMachine(Consumer<MetadataState> listener) {
        this.listener = listener;
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
