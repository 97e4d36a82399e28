package io.charybdis.cluster;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.messaging.Verb;
import io.netty.buffer.Unpooled;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Which other nodes are up: every {@link #INTERVAL_MILLIS} this node sends an ECHO to each other member and
 * feeds the answers to a phi-accrual detector per member (Hayashibara et al.; Cassandra's {@code
 * phi_convict_threshold}, default 8): phi grows with the time since the last answer, measured against the mean
 * interval between answers, and a member whose phi passes the threshold is down until it answers again.
 *
 * <p>Runs on its own timer thread, never on a shard; {@link #isAlive} is a map read, safe from any thread.
 * A member never heard from is presumed up (a node that just joined), so requests are not refused before the
 * first round of answers.
 */
public final class FailureDetector implements Liveness, AutoCloseable {
    /** Cassandra's gossip interval: one probe of each member per second. */
    public static final long INTERVAL_MILLIS = 1000;
    static final double PHI_CONVICT_THRESHOLD = 8;
    private static final int WINDOW = 100;
    private static final double PHI_FACTOR = 1.0 / Math.log(10.0);

    private final MessagingService messaging;
    private final Supplier<List<Endpoint>> members;
    private final UUID self;
    private final BiConsumer<Endpoint, Boolean> onChange;
    private final long interval;
    private final Map<UUID, History> histories = new ConcurrentHashMap<>();
    private final Map<UUID, Long> down = new ConcurrentHashMap<>();
    /** The load each member's last answer carried (live SSTable bytes; {@code Replicas.reportLoad}). */
    private final Map<UUID, Long> loads = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "failure-detector");
        t.setDaemon(true);
        return t;
    });

    /** Answer times of one member; touched only by the timer thread and answer callbacks (synchronized). */
    private static final class History {
        final ArrayDeque<Long> intervals = new ArrayDeque<>();
        long intervalSum;
        long lastAnswer;
        final long defaultInterval;

        History(long defaultInterval) {
            this.defaultInterval = defaultInterval;
        }

        synchronized void answered(long now) {
            if (lastAnswer != 0) {
                long interval = now - lastAnswer;
                intervals.add(interval);
                intervalSum += interval;
                if (intervals.size() > WINDOW) {
                    intervalSum -= intervals.poll();
                }
            }
            lastAnswer = now;
        }

        synchronized double phi(long now) {
            if (lastAnswer == 0) {
                return 0;
            }
            double mean = intervals.isEmpty() ? defaultInterval : (double) intervalSum / intervals.size();
            return PHI_FACTOR * (now - lastAnswer) / Math.max(mean, 1);
        }
    }

    /**
     * @param members  the cluster's members now (this node included: it is skipped)
     * @param onChange told (member, up?) when a member is convicted or answers again
     */
    public FailureDetector(MessagingService messaging, Supplier<List<Endpoint>> members, UUID self,
                           BiConsumer<Endpoint, Boolean> onChange) {
        this(messaging, members, self, onChange, INTERVAL_MILLIS);
    }

    /** With another probe interval (tests: convictions come about 18 intervals after the last answer). */
    public FailureDetector(MessagingService messaging, Supplier<List<Endpoint>> members, UUID self,
                           BiConsumer<Endpoint, Boolean> onChange, long intervalMillis) {
        this.interval = intervalMillis;
        this.messaging = messaging;
        this.members = members;
        this.self = self;
        this.onChange = onChange;
    }

    public FailureDetector start() {
        timer.scheduleWithFixedDelay(this::round, interval, interval, TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public boolean isAlive(Endpoint endpoint) {
        return endpoint.hostId().equals(self) || !down.containsKey(endpoint.hostId());
    }

    /** When {@code endpoint} was convicted, in ms since the epoch; 0 while it is up (hinted handoff's window). */
    public long downSinceMillis(Endpoint endpoint) {
        Long since = down.get(endpoint.hostId());
        return since == null ? 0 : since;
    }

    /** The load {@code member} last reported with its answer (live SSTable bytes), or -1 if it has not. */
    public long loadOf(UUID member) {
        Long l = loads.get(member);
        return l == null ? -1 : l;
    }

    private void round() {
        long now = System.currentTimeMillis();
        for (Endpoint e : members.get()) {
            if (e.hostId().equals(self)) {
                continue;
            }
            History h = histories.computeIfAbsent(e.hostId(), id -> new History(interval));
            if (h.lastAnswer == 0) {
                h.answered(now); // start the clock: never heard from counts from now
            }
            messaging.send(e.storageAddress(), 0, Verb.ECHO, Unpooled.EMPTY_BUFFER, 2 * interval)
                    .whenComplete((answer, t) -> {
                        if (t == null) {
                            if (answer.readableBytes() >= 8) {
                                loads.put(e.hostId(), answer.getLong(answer.readerIndex()));
                            }
                            answer.release();
                            h.answered(System.currentTimeMillis());
                            if (down.remove(e.hostId()) != null) {
                                onChange.accept(e, true);
                            }
                        }
                    });
            if (h.phi(now) > PHI_CONVICT_THRESHOLD && down.putIfAbsent(e.hostId(), now) == null) {
                onChange.accept(e, false);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
