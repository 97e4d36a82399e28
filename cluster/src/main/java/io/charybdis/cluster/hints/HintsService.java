package io.charybdis.cluster.hints;

import io.charybdis.cluster.Liveness;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hinted handoff, as Cassandra 5.0 does it: a write that a replica missed — it was down, or did not answer in time —
 * is kept by the coordinator as a hint, on disk ({@link HintsStore}), and replayed to the replica once it is up
 * again.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li><b>When a hint is written</b> ({@link #shouldHint}): hinted handoff enabled, the replica's data centre not
 *       in {@code hinted_handoff_disabled_datacenters}, the replica down for no longer than {@code max_hint_window},
 *       and, with {@code hint_window_persistent_enabled}, its oldest stored hint no older than the window either
 *       (so a node that keeps failing cannot collect hints for ever, across restarts of this node too).</li>
 *   <li><b>When hints are delivered</b>: when the failure detector sees the node come up ({@link #onUp}), and every
 *       {@link #DISPATCH_INTERVAL_MILLIS} for each live node that has hints (a node killed and restarted before it
 *       was convicted is never "seen coming up"). One delivery per host at a time, on
 *       {@code max_hints_delivery_threads} threads; each file is sent in windows of {@link #WINDOW} hints, resumed
 *       from the last complete window after a failure, and deleted once every hint in it was acknowledged.</li>
 *   <li><b>Expiry</b>: a hint lives as long as its table's {@code gc_grace_seconds} (after that a tombstone it
 *       carries could resurrect data); expired hints are dropped at delivery, as Cassandra drops them.</li>
 *   <li><b>Throttle</b>: {@code hinted_handoff_throttle} per delivery thread, divided by the number of other nodes.</li>
 *   <li>Delivery re-sends the mutation as a plain MUTATION to the replica's owning shard: writes are idempotent
 *       (cells keep their timestamps), so a hint delivered twice after a failure does no harm.</li>
 * </ul>
 */
public final class HintsService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HintsService.class);
    /** Cassandra's dispatch trigger period. */
    public static final long DISPATCH_INTERVAL_MILLIS = 10_000;
    static final int WINDOW = 128;

    /** Sends a hint's mutation to the replica; completes when it acknowledged. */
    @FunctionalInterface
    public interface Sender {
        CompletableFuture<Void> apply(Endpoint target, Mutation m, long timeoutMillis);
    }

    private final HintsConfig config;
    private final HintsStore store;
    private final Sender sender;
    private final Function<UUID, Endpoint> endpoints;
    private final Liveness liveness;
    private final ToLongFunction<Endpoint> downSinceMillis;
    private final ToIntFunction<TableId> gcGraceSeconds;
    private final IntSupplier otherNodes;
    private final long timeoutMillis;
    private final Set<UUID> delivering = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<java.nio.file.Path, Long> resumeAt = new ConcurrentHashMap<>();
    private final ExecutorService delivery;
    private final ScheduledExecutorService trigger;
    private final LongAdder written = new LongAdder();
    private final LongAdder notWritten = new LongAdder();
    private final LongAdder pastWindow = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder deliveryFailures = new LongAdder();
    private final LongAdder expired = new LongAdder();

    /**
     * @param endpoints       a host's endpoint in the ring now (null: not a member any more)
     * @param downSinceMillis when the failure detector convicted the node (0: it is not down)
     * @param gcGraceSeconds  a table's gc_grace_seconds (a hint's time to live)
     * @param otherNodes      how many other nodes the ring has (divides the delivery throttle)
     */
    public HintsService(HintsConfig config, Sender sender, Function<UUID, Endpoint> endpoints, Liveness liveness,
                        ToLongFunction<Endpoint> downSinceMillis, ToIntFunction<TableId> gcGraceSeconds,
                        IntSupplier otherNodes, long timeoutMillis) throws IOException {
        this.config = config;
        this.store = new HintsStore(config);
        this.sender = sender;
        this.endpoints = endpoints;
        this.liveness = liveness;
        this.downSinceMillis = downSinceMillis;
        this.gcGraceSeconds = gcGraceSeconds;
        this.otherNodes = otherNodes;
        this.timeoutMillis = timeoutMillis;
        AtomicInteger n = new AtomicInteger();
        this.delivery = Executors.newFixedThreadPool(config.deliveryThreads(), r -> {
            Thread t = new Thread(r, "hints-delivery-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.trigger = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hints-dispatch-trigger");
            t.setDaemon(true);
            return t;
        });
    }

    /** Begins the periodic delivery of hints to live nodes. */
    public HintsService start() {
        trigger.scheduleWithFixedDelay(this::dispatchAll, DISPATCH_INTERVAL_MILLIS, DISPATCH_INTERVAL_MILLIS,
                TimeUnit.MILLISECONDS);
        return this;
    }

    public HintsConfig config() {
        return config;
    }

    /** True when a write {@code replica} missed is to be kept as a hint (see the class notes). */
    public boolean shouldHint(Endpoint replica) {
        if (!config.enabled() || config.disabledDatacenters().contains(replica.datacenter())) {
            return false;
        }
        long now = System.currentTimeMillis();
        long downSince = downSinceMillis.applyAsLong(replica);
        boolean expired = downSince > 0 && now - downSince > config.maxHintWindowMillis();
        if (!expired && config.windowPersistent()) {
            long oldest = store.oldestMillis(replica.hostId());
            expired = oldest != Long.MAX_VALUE && now - oldest > config.maxHintWindowMillis();
        }
        if (expired) {
            pastWindow.increment();
        }
        return !expired;
    }

    /**
     * Keeps {@code m} as a hint for {@code replica}; completes with true once it is written, false when it could
     * not be (the store's queue full, or the host's hints at {@code max_hints_size_per_host}).
     */
    public CompletableFuture<Boolean> hint(Endpoint replica, Mutation m) {
        byte[] bytes = new byte[m.serializedSize()];
        m.buffer().getBytes(0, bytes);
        return store.append(replica.hostId(), System.currentTimeMillis(), gcGraceSeconds.applyAsInt(m.table()), bytes)
                .thenApply(ok -> {
                    (ok ? written : notWritten).increment();
                    return ok;
                });
    }

    /** The failure detector saw {@code e} come up: deliver its hints now. */
    public void onUp(Endpoint e) {
        if (store.bytes(e.hostId()) > 0) {
            dispatch(e.hostId());
        }
    }

    /** Schedules delivery to every live node that has hints (and drops those of nodes gone from the ring). */
    public void dispatchAll() {
        for (UUID host : store.hostsWithHints()) {
            Endpoint e = endpoints.apply(host);
            if (e == null) {
                if (config.autoCleanup()) {
                    LOG.info("deleting the hints of host={}, no longer in the ring (auto_hints_cleanup_enabled)", host);
                    store.deleteAll(host);
                }
            } else if (liveness.isAlive(e)) {
                dispatch(host);
            }
        }
    }

    private void dispatch(UUID host) {
        if (!delivering.add(host)) {
            return;
        }
        try {
            delivery.execute(() -> {
                try {
                    deliver(host);
                } catch (RuntimeException e) {
                    deliveryFailures.increment();
                    LOG.warn("hint delivery to host={} failed; it is retried later", host, e);
                } finally {
                    delivering.remove(host);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            delivering.remove(host); // closing
        }
    }

    private void deliver(UUID host) {
        Endpoint target = endpoints.apply(host);
        if (target == null) {
            return;
        }
        List<HintsStore.HintsFile> files = store.closeForDelivery(host).join();
        long started = System.nanoTime();
        long sentBytes = 0;
        long sentHints = 0;
        for (HintsStore.HintsFile file : files) {
            long from = resumeAt.getOrDefault(file.path(), (long) HintsLayout.HEADER_SIZE);
            try (HintsReader reader = new HintsReader(file.path(), from)) {
                while (true) {
                    List<CompletableFuture<Void>> window = new ArrayList<>(WINDOW);
                    long windowEnd = -1;
                    long now = System.currentTimeMillis();
                    for (int i = 0; i < WINDOW; i++) {
                        HintsReader.Hint h = reader.next();
                        if (h == null) {
                            break;
                        }
                        windowEnd = h.end();
                        if (h.createdMillis() + h.ttlSeconds() * 1000L < now) {
                            expired.increment();
                            continue;
                        }
                        Mutation m = Mutation.copyOf(new UnsafeBuffer(h.mutation()), 0, h.mutation().length);
                        window.add(sender.apply(target, m, timeoutMillis));
                        sentBytes += h.mutation().length;
                    }
                    if (windowEnd < 0) {
                        break;
                    }
                    try {
                        CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).join();
                    } catch (RuntimeException e) {
                        deliveryFailures.increment();
                        LOG.info("hint delivery to {} stopped ({}): resumed at the next attempt", target, e.toString());
                        return;
                    }
                    delivered.add(window.size());
                    sentHints += window.size();
                    resumeAt.put(file.path(), windowEnd);
                    throttle(started, sentBytes);
                }
            } catch (CorruptHintsException e) {
                LOG.error("{}; the rest of that file is dropped", e.getMessage());
            }
            store.delete(host, file).join();
            resumeAt.remove(file.path());
        }
        if (sentHints > 0) {
            LOG.info("delivered {} hints to {}", sentHints, target);
        }
    }

    private void throttle(long startedNanos, long sentBytes) {
        long perSecond = config.throttleBytesPerSecond() / Math.max(1, otherNodes.getAsInt());
        if (config.throttleBytesPerSecond() == 0 || perSecond == 0) {
            return;
        }
        long dueNanos = sentBytes * 1_000_000_000L / perSecond;
        long ahead = dueNanos - (System.nanoTime() - startedNanos);
        if (ahead > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(ahead);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ------------------------------------------------------------------ what is held and done (metrics)

    /** Hints written since start (Cassandra's TotalHints). */
    public long hintsWritten() {
        return written.sum();
    }

    /** Hints that could not be written (store full, or past max_hints_size_per_host). */
    public long hintsNotWritten() {
        return notWritten.sum();
    }

    /** Hints not written because the node was past max_hint_window. */
    public long hintsPastWindow() {
        return pastWindow.sum();
    }

    /** Hints delivered and acknowledged (Cassandra's hints_succeeded). */
    public long hintsDelivered() {
        return delivered.sum();
    }

    /** Hints dropped at delivery because they outlived their table's gc_grace_seconds. */
    public long hintsExpired() {
        return expired.sum();
    }

    /** Delivery attempts that stopped on a failure. */
    public long deliveryFailures() {
        return deliveryFailures.sum();
    }

    /** One host's stored hints. */
    public record Pending(UUID host, long files, long bytes, long oldestMillis) {
    }

    /** Hosts this node holds hints for, with how much. */
    public List<Pending> pending() {
        List<Pending> out = new ArrayList<>();
        for (UUID h : store.hostsWithHints()) {
            out.add(new Pending(h, store.files(h), store.bytes(h), store.oldestMillis(h)));
        }
        return out;
    }

    /** Bytes of hints held for {@code host}. */
    public long pendingBytes(UUID host) {
        return store.bytes(host);
    }

    @Override
    public void close() {
        trigger.shutdownNow();
        delivery.shutdownNow();
        try {
            delivery.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.close();
    }
}
