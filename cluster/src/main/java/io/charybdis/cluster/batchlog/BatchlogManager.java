package io.charybdis.cluster.batchlog;

import io.charybdis.storage.Storage;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays this node's batchlog (Cassandra's BatchlogManager): every {@link #REPLAY_INTERVAL_MILLIS}, each entry of
 * {@code system.batches} older than twice the write timeout — its coordinator died or could not finish — has its
 * mutations written again to their replicas (at ONE: replicas that miss them get hints) and is then deleted. Entries
 * younger than that belong to batches still in progress. Writes are idempotent, so a batch replayed although its
 * coordinator had applied it does no harm.
 *
 * <p>Runs on its own thread, never on a shard; reads the local table in pages of {@link #PAGE} entries.
 */
public final class BatchlogManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchlogManager.class);
    /** Cassandra's batchlog replay period. */
    public static final long REPLAY_INTERVAL_MILLIS = 10_000;
    static final int PAGE = 128;

    private final Storage storage;
    private final Function<List<Mutation>, CompletableFuture<Void>> replayer;
    private final long timeoutMillis;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "batchlog-replay");
        t.setDaemon(true);
        return t;
    });
    private final LongAdder replayed = new LongAdder();

    /**
     * @param replayer      writes a batch's mutations to their replicas (the coordinator at ONE)
     * @param timeoutMillis the batchlog timeout: twice write_request_timeout
     */
    public BatchlogManager(Storage storage, Function<List<Mutation>, CompletableFuture<Void>> replayer,
                           long timeoutMillis) {
        this.storage = storage;
        this.replayer = replayer;
        this.timeoutMillis = timeoutMillis;
    }

    public BatchlogManager start() {
        timer.scheduleWithFixedDelay(() -> {
            try {
                replayDue();
            } catch (RuntimeException e) {
                LOG.warn("batchlog replay failed; it is tried again in {} ms", REPLAY_INTERVAL_MILLIS, e);
            }
        }, REPLAY_INTERVAL_MILLIS, REPLAY_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Batches replayed since start. */
    public long replayed() {
        return replayed.sum();
    }

    /** Replays every entry older than the batchlog timeout; returns how many. Blocks: not for shard threads. */
    public int replayDue() {
        long now = System.currentTimeMillis();
        int done = 0;
        ReadCommand.ResumePoint resume = null;
        while (true) {
            ReadCommand.Builder b = ReadCommand.range(Batchlog.TABLE, null, null).rowLimit(PAGE)
                    .nowInSeconds((int) (now / 1000));
            if (resume != null) {
                b.startAfter(resume);
            }
            ReadResult page = storage.read(b.build()).join();
            List<UUID> ids = new ArrayList<>();
            List<byte[]> bodies = new ArrayList<>();
            ReadResult.Cursor c = page.cursor();
            while (c.nextPartition()) {
                UUID id = Batchlog.id(c.keyBytes());
                byte[] body = null;
                while (c.nextRow()) {
                    while (c.nextCell()) {
                        if (c.columnId() == Batchlog.MUTATIONS) {
                            body = c.valueBytes();
                        }
                    }
                }
                if (body != null && now - Batchlog.createdMillis(id) > timeoutMillis) {
                    ids.add(id);
                    bodies.add(body);
                }
            }
            boolean more = page.limitReached();
            resume = page.resumePoint();
            page.release();
            for (int i = 0; i < ids.size(); i++) {
                replay(ids.get(i), bodies.get(i));
                done++;
            }
            if (!more || resume == null) {
                break;
            }
        }
        if (done > 0) {
            LOG.info("replayed {} batches from the batchlog", done);
        }
        return done;
    }

    private void replay(UUID id, byte[] body) {
        List<Mutation> mutations = Batchlog.mutations(body);
        replayer.apply(mutations).orTimeout(timeoutMillis * 5, TimeUnit.MILLISECONDS).join();
        long micros = System.currentTimeMillis() * 1000;
        storage.apply(Batchlog.removal(id, micros, (int) (micros / 1_000_000))).join();
        replayed.increment();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
