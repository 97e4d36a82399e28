package io.charybdis.stress.run;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import io.charybdis.stress.dist.Distribution;
import io.charybdis.stress.ops.Bound;
import io.charybdis.stress.ops.Operation;
import io.charybdis.stress.report.GcStats;
import io.charybdis.stress.report.GraphWriter;
import io.charybdis.stress.report.IntervalStats;
import io.charybdis.stress.report.JmxGcSampler;
import io.charybdis.stress.report.ReportFormatter;
import io.charybdis.stress.report.ReportFormatter.Summary;
import io.charybdis.stress.report.Uncertainty;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Runs one phase of load and reports it.
 *
 * <p>Implementation notes: each of the {@code threads} platform threads loops: take an in-flight permit (its own
 * window of {@code inFlightPerThread}), take a rate slot if paced, pick the operation kind and the partition seed,
 * send asynchronously. The completion (on a driver thread) records the latency into the kind's {@link OpStats},
 * retries up to {@code tries} times, and returns the permit. Latency counts from the first send, or with
 * {@code fixed=} from the slot's intended start. The calling thread is the reporter: every interval it swaps out the
 * interval histograms, prints a line per kind and a total, and decides when a duration or convergence run ends.
 */
public final class LoadPhase {

    private final CqlSession session;
    private final PhaseConfig config;
    private final PrintStream out;
    private final JmxGcSampler gcSampler;
    private final HistogramLogWriter hdrLog;
    private final GraphWriter graph;
    private final List<OpStats> stats = new ArrayList<>();
    private final AtomicLong budget;
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final AtomicInteger errorLines = new AtomicInteger();
    private volatile boolean stop;
    private final Distribution sharedSequence;

    public LoadPhase(CqlSession session, PhaseConfig config, List<String> names, PrintStream out,
                     JmxGcSampler gcSampler, HistogramLogWriter hdrLog, GraphWriter graph) {
        this.session = session;
        this.config = config;
        this.out = out;
        this.gcSampler = gcSampler;
        this.hdrLog = hdrLog;
        this.graph = graph;
        for (String n : names) {
            stats.add(new OpStats(n));
        }
        long limit = config.count() >= 0 ? config.count() : Long.MAX_VALUE;
        if (config.sequential() && !config.wrap()) {
            limit = Math.min(limit, config.population().max() - config.population().min() + 1);
        }
        this.budget = new AtomicLong(limit);
        this.sharedSequence = config.sequential() ? config.population().create() : null;
    }

    public PhaseResult run() throws InterruptedException {
        int n = config.threads();
        CountDownLatch done = new CountDownLatch(n);
        List<Thread> workers = new ArrayList<>();
        SplittableRandom seeds = new SplittableRandom();
        long start = System.nanoTime();
        if (config.rate() != null) {
            config.rate().reset(start);
        }
        for (int i = 0; i < n; i++) {
            Worker w = new Worker(seeds.split(), done);
            Thread t = new Thread(w, "stress-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        workers.forEach(Thread::start);

        Reporter reporter = new Reporter(start);
        long intervalNanos = TimeUnit.MILLISECONDS.toNanos(config.intervalMillis());
        long nextReport = start + intervalNanos;
        while (true) {
            long wait = nextReport - System.nanoTime();
            if (done.await(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
                break;
            }
            if (System.nanoTime() >= nextReport) {
                reporter.interval(System.nanoTime());
                nextReport += intervalNanos;
                if (config.durationNanos() > 0 && System.nanoTime() - start >= config.durationNanos()) {
                    stop = true;
                }
                if (config.targetUncertainty() >= 0 && reporter.converged()) {
                    stop = true;
                }
            }
        }
        long end = System.nanoTime();
        for (Thread t : workers) {
            t.join();
        }
        reporter.interval(end);
        return reporter.result((end - start) / 1e9);
    }

    private void fail(String message) {
        if (config.ignoreErrors()) {
            if (errorLines.incrementAndGet() <= 10) {
                System.err.println(message);
            }
            return;
        }
        if (failure.compareAndSet(null, message)) {
            stop = true;
        }
    }

    private final class Worker implements Runnable {
        private final SplittableRandom random;
        private final CountDownLatch done;
        private final List<Operation> ops = config.operations().get();
        private final Semaphore window = new Semaphore(config.inFlightPerThread());
        private final Distribution population;
        private final LongSupplier seeds;
        private final Distribution clustering;
        private final double totalWeight;
        private int current;
        private long remainingInRun;

        Worker(SplittableRandom random, CountDownLatch done) {
            this.random = random;
            this.done = done;
            if (sharedSequence != null) {
                population = sharedSequence;
            } else {
                population = config.population().create();
                population.setSeed(random.nextLong());
            }
            seeds = population::next;
            clustering = config.clustering() == null ? null : config.clustering().create();
            if (clustering != null) {
                clustering.setSeed(random.nextLong());
            }
            double w = 0;
            for (double x : config.weights()) {
                w += x;
            }
            totalWeight = w;
        }

        @Override
        public void run() {
            try {
                while (!stop && budget.getAndDecrement() > 0) {
                    window.acquire();
                    long intended = config.rate() == null ? 0 : config.rate().acquire();
                    if (stop) {
                        window.release();
                        break;
                    }
                    int kind = chooseKind();
                    long sent = System.nanoTime();
                    long from = config.rate() != null && config.rate().fixed() ? intended : sent;
                    Operation op = ops.get(kind);
                    Bound bound;
                    try {
                        bound = op.bind(seeds);
                    } catch (RuntimeException e) {
                        stats.get(kind).failure();
                        fail("Operation " + op.name() + " could not be bound: " + e);
                        window.release();
                        continue;
                    }
                    send(kind, op, bound, from, 1);
                }
                window.acquire(config.inFlightPerThread());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                fail("Worker failed: " + e);
            } finally {
                done.countDown();
            }
        }

        private int chooseKind() {
            if (ops.size() == 1) {
                return 0;
            }
            if (clustering != null && remainingInRun > 0) {
                remainingInRun--;
                return current;
            }
            double r = random.nextDouble() * totalWeight;
            int k = 0;
            double[] w = config.weights();
            while (k < w.length - 1 && r >= w[k]) {
                r -= w[k];
                k++;
            }
            current = k;
            remainingInRun = clustering == null ? 0 : Math.max(0, clustering.next() - 1);
            return k;
        }

        private void send(int kind, Operation op, Bound bound, long from, int attempt) {
            session.executeAsync(bound.statement())
                    .whenComplete((rs, err) -> received(kind, op, bound, from, attempt, rs, err, 0));
        }

        /** A page of the result (or the error): a read goes on to its next pages, counting rows. */
        private void received(int kind, Operation op, Bound bound, long from, int attempt, AsyncResultSet rs,
                              Throwable err, int rowsSoFar) {
            if (err != null || !bound.isRead()) {
                complete(kind, op, bound, from, attempt, err == null ? bound.rows() : -1, err);
                return;
            }
            int found = rowsSoFar + rs.remaining();
            if (rs.hasMorePages()) {
                rs.fetchNextPage().whenComplete((next, e) -> received(kind, op, bound, from, attempt, next, e, found));
                return;
            }
            complete(kind, op, bound, from, attempt, found == 0 && bound.mustFind() ? -1 : found, null);
        }

        private void complete(int kind, Operation op, Bound bound, long from, int attempt, int rows, Throwable err) {
            if (rows >= 0) {
                int partitions = bound.isRead() ? Math.min(bound.partitions(), rows) : bound.partitions();
                stats.get(kind).success(System.nanoTime() - from, partitions, rows);
                window.release();
                return;
            }
            if (attempt < config.tries() && !stop) {
                send(kind, op, bound, from, attempt + 1);
                return;
            }
            stats.get(kind).failure();
            String why = err == null ? "Data returned was not validated" : "Error executing: " + err;
            fail("java.io.IOException: Operation " + op.name() + " on seed " + bound.seed() + " failed after " + attempt
                    + " tries: " + why);
            window.release();
        }
    }

    /** The reporter's state: previous counters, cumulative histograms, throughput uncertainty. */
    private final class Reporter {
        private final long start;
        private long last;
        private final long[] prevOps;
        private final long[] prevPartitions;
        private final long[] prevRows;
        private final long[] prevErrors;
        private final Histogram[] interval;
        private final Histogram[] cumulative;
        private final Histogram cumulativeTotal = newHistogram();
        private final Uncertainty uncertainty = new Uncertainty();
        private GcStats gcTotal = GcStats.NONE;

        Reporter(long start) {
            this.start = start;
            this.last = start;
            int k = stats.size();
            prevOps = new long[k];
            prevPartitions = new long[k];
            prevRows = new long[k];
            prevErrors = new long[k];
            interval = new Histogram[k];
            cumulative = new Histogram[k];
            for (int i = 0; i < k; i++) {
                cumulative[i] = newHistogram();
            }
        }

        private static Histogram newHistogram() {
            return new Histogram(1, OpStats.HIGHEST_MICROS, 3);
        }

        void interval(long now) {
            double secs = (now - last) / 1e9;
            double time = (now - start) / 1e9;
            last = now;
            GcStats gc = config.print() && gcSampler != null ? gcSampler.sample() : GcStats.NONE;
            gcTotal = gcTotal.plus(gc);
            Histogram total = newHistogram();
            long tOps = 0;
            long tAll = 0;
            long tPk = 0;
            long tRows = 0;
            long tErr = 0;
            List<IntervalStats> lines = new ArrayList<>();
            double rate = 0;
            long[] ops = new long[stats.size()];
            for (int i = 0; i < stats.size(); i++) {
                OpStats s = stats.get(i);
                interval[i] = s.intervalHistogram(interval[i]);
                interval[i].setStartTimeStamp(TimeUnit.NANOSECONDS.toMillis(now) - (long) (secs * 1000));
                interval[i].setEndTimeStamp(TimeUnit.NANOSECONDS.toMillis(now));
                interval[i].setTag(s.name);
                cumulative[i].add(interval[i]);
                total.add(interval[i]);
                ops[i] = s.ops.sum();
                long dOps = ops[i] - prevOps[i];
                long pk = s.partitions.sum();
                long rows = s.rows.sum();
                long errs = s.errors.sum();
                lines.add(IntervalStats.of(s.name, ops[i], dOps, pk - prevPartitions[i], rows - prevRows[i],
                        interval[i], secs, time, 0, errs, gc));
                tOps += dOps;
                tAll += ops[i];
                tPk += pk - prevPartitions[i];
                tRows += rows - prevRows[i];
                tErr += errs;
                prevOps[i] = ops[i];
                prevPartitions[i] = pk;
                prevRows[i] = rows;
                prevErrors[i] = errs;
                if (hdrLog != null && interval[i].getTotalCount() > 0) {
                    synchronized (hdrLog) {
                        hdrLog.outputIntervalHistogram(interval[i]);
                    }
                }
            }
            cumulativeTotal.add(total);
            if (secs >= 0.5 * config.intervalMillis() / 1000d) {
                rate = tOps / Math.max(secs, 1e-9);
                uncertainty.update(rate);
            }
            double stderr = uncertainty.get();
            IntervalStats totalLine = IntervalStats.of("total", tAll, tOps, tPk, tRows, total, secs, time, stderr, tErr, gc);
            if (graph != null) {
                graph.interval(totalLine);
            }
            if (!config.print()) {
                return;
            }
            if (stats.size() > 1) {
                for (IntervalStats l : lines) {
                    out.println(ReportFormatter.row(withStderr(l, stderr)));
                }
            }
            out.println(ReportFormatter.row(totalLine));
        }

        private IntervalStats withStderr(IntervalStats l, double stderr) {
            return new IntervalStats(l.name(), l.totalOps(), l.opRate(), l.partitionRate(), l.rowRate(), l.meanMs(),
                    l.medianMs(), l.p95Ms(), l.p99Ms(), l.p999Ms(), l.maxMs(), l.timeSeconds(), stderr, l.errors(), l.gc());
        }

        boolean converged() {
            long m = uncertainty.measurements();
            return m >= config.maxMeasurements()
                    || (m >= config.minMeasurements() && uncertainty.get() < config.targetUncertainty());
        }

        PhaseResult result(double elapsed) {
            List<Summary> perKind = new ArrayList<>();
            long allOps = 0;
            long allPk = 0;
            long allRows = 0;
            long allErr = 0;
            for (int i = 0; i < stats.size(); i++) {
                OpStats s = stats.get(i);
                long ops = s.ops.sum();
                long pk = s.partitions.sum();
                long rows = s.rows.sum();
                long err = s.errors.sum();
                perKind.add(summary(s.name, cumulative[i], ops, pk, rows, err, elapsed));
                allOps += ops;
                allPk += pk;
                allRows += rows;
                allErr += err;
            }
            Summary total = summary("total", cumulativeTotal, allOps, allPk, allRows, allErr, elapsed);
            return new PhaseResult(total, perKind, gcTotal, elapsed, failure.get());
        }

        private Summary summary(String name, Histogram h, long ops, long pk, long rows, long err, double elapsed) {
            double secs = Math.max(elapsed, 1e-9);
            boolean empty = h.getTotalCount() == 0;
            return new Summary(name, ops / secs, pk / secs, rows / secs, empty ? 0 : h.getMean() / 1000d,
                    empty ? 0 : h.getValueAtPercentile(50) / 1000d, empty ? 0 : h.getValueAtPercentile(95) / 1000d,
                    empty ? 0 : h.getValueAtPercentile(99) / 1000d, empty ? 0 : h.getValueAtPercentile(99.9) / 1000d,
                    empty ? 0 : h.getMaxValue() / 1000d, pk, err);
        }
    }
}
