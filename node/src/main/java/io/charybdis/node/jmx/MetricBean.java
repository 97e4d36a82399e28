package io.charybdis.node.jmx;

import io.charybdis.storage.LatencyHistogram;
import io.charybdis.storage.TableMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.ObjectName;
import javax.management.ReflectionException;

/**
 * One metric bean in the shapes of Cassandra's {@code CassandraMetricsRegistry} (JmxGauge, JmxCounter, JmxMeter,
 * JmxHistogram, JmxTimer): the same attribute names and types, and the {@code objectName()} operation. Values are
 * read from the node when asked.
 */
final class MetricBean implements DynamicMBean {
    private final String description;
    private final Map<String, Attr> attributes = new LinkedHashMap<>();
    private final Map<String, Supplier<Object>> operations = new LinkedHashMap<>();
    private final Map<String, String> operationTypes = new LinkedHashMap<>();
    private volatile ObjectName name;

    private record Attr(String type, Supplier<Object> value) {
    }

    private MetricBean(String description) {
        this.description = description;
        operation("objectName", ObjectName.class.getName(), () -> name);
    }

    void bind(ObjectName n) {
        this.name = n;
    }

    private MetricBean attr(String attr, String type, Supplier<Object> value) {
        attributes.put(attr, new Attr(type, value));
        return this;
    }

    private MetricBean operation(String op, String type, Supplier<Object> value) {
        operations.put(op, value);
        operationTypes.put(op, type);
        return this;
    }

    // ------------------------------------------------------------------ shapes

    /** A gauge: attribute {@code Value} of the given (JDK or open) type. */
    static MetricBean gauge(Class<?> type, Supplier<?> value) {
        return new MetricBean("gauge").attr("Value", type.getName(), value::get);
    }

    /** A counter: attribute {@code Count}. */
    static MetricBean counter(LongSupplier count) {
        return new MetricBean("counter").attr("Count", "long", count::getAsLong);
    }

    /** A meter: count and rates per second. */
    static MetricBean meter(LongSupplier count) {
        MetricBean b = new MetricBean("meter");
        b.meterAttrs(count, new Rates(count));
        return b;
    }

    private void meterAttrs(LongSupplier count, Rates rates) {
        attr("Count", "long", count::getAsLong);
        attr("MeanRate", "double", rates::meanRate);
        attr("OneMinuteRate", "double", () -> rates.rate(0));
        attr("FiveMinuteRate", "double", () -> rates.rate(1));
        attr("FifteenMinuteRate", "double", () -> rates.rate(2));
        attr("RateUnit", "java.lang.String", () -> "events/second");
    }

    /** A histogram of exact small values whose statistics are taken over all of them. */
    static MetricBean histogram(Supplier<TableMetrics.Histogram> h) {
        return histogram(h, h);
    }

    /**
     * A histogram of exact small values (e.g. SSTables per read): Count and values over all of them, the
     * statistics (min, max, mean, percentiles) over the recent ones, as Cassandra's decaying histograms do.
     */
    static MetricBean histogram(Supplier<TableMetrics.Histogram> all, Supplier<TableMetrics.Histogram> recent) {
        MetricBean b = new MetricBean("histogram");
        Supplier<TableMetrics.Histogram> h = recent;
        b.attr("Count", "long", () -> all.get().count());
        b.attr("Min", "long", () -> min(h.get()));
        b.attr("Max", "long", () -> h.get().max());
        b.attr("Mean", "double", () -> h.get().mean());
        b.attr("StdDev", "double", () -> stdDev(h.get()));
        b.percentiles(p -> (double) h.get().percentile(p));
        b.attr("RecentValues", "[J", () -> h.get().counts());
        b.operation("values", "[J", () -> all.get().counts());
        return b;
    }

    /** A histogram of counts (e.g. tombstones per read) in Cassandra's EstimatedHistogram buckets. */
    static MetricBean valueHistogram(Supplier<LatencyHistogram.Snapshot> h) {
        MetricBean b = new MetricBean("histogram");
        b.attr("Count", "long", () -> h.get().count());
        b.attr("Min", "long", () -> h.get().min());
        b.attr("Max", "long", () -> h.get().max());
        b.attr("Mean", "double", () -> h.get().mean());
        b.attr("StdDev", "double", () -> h.get().stdDev());
        b.percentiles(p -> (double) h.get().percentile(p));
        b.attr("RecentValues", "[J", () -> h.get().counts());
        b.operation("values", "[J", () -> h.get().counts());
        return b;
    }

    /** A timer in microseconds: meter of the count plus the latency histogram. */
    static MetricBean timer(Supplier<LatencyHistogram.Snapshot> h) {
        MetricBean b = new MetricBean("timer");
        LongSupplier count = () -> h.get().count();
        b.meterAttrs(count, new Rates(count));
        b.attr("Min", "double", () -> (double) h.get().min());
        b.attr("Max", "double", () -> (double) h.get().max());
        b.attr("Mean", "double", () -> h.get().mean());
        b.attr("StdDev", "double", () -> h.get().stdDev());
        b.percentiles(p -> (double) h.get().percentile(p));
        b.attr("RecentValues", "[J", () -> h.get().counts());
        b.operation("values", "[J", () -> h.get().counts());
        b.attr("DurationUnit", "java.lang.String", () -> "microseconds");
        return b;
    }

    private void percentiles(java.util.function.DoubleFunction<Double> at) {
        attr("50thPercentile", "double", () -> at.apply(0.5));
        attr("75thPercentile", "double", () -> at.apply(0.75));
        attr("95thPercentile", "double", () -> at.apply(0.95));
        attr("98thPercentile", "double", () -> at.apply(0.98));
        attr("99thPercentile", "double", () -> at.apply(0.99));
        attr("999thPercentile", "double", () -> at.apply(0.999));
    }

    private static long min(TableMetrics.Histogram h) {
        long[] c = h.counts();
        for (int v = 0; v < c.length; v++) {
            if (c[v] > 0) {
                return v;
            }
        }
        return 0;
    }

    private static double stdDev(TableMetrics.Histogram h) {
        long n = h.count();
        if (n < 2) {
            return 0;
        }
        double mean = h.mean();
        double sq = 0;
        long[] c = h.counts();
        for (int v = 0; v < c.length; v++) {
            sq += (v - mean) * (v - mean) * c[v];
        }
        return Math.sqrt(sq / (n - 1));
    }

    // ------------------------------------------------------------------ DynamicMBean

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException, MBeanException {
        Attr a = attributes.get(attribute);
        if (a == null) {
            throw new AttributeNotFoundException(attribute);
        }
        try {
            return a.value().get();
        } catch (RuntimeException e) {
            throw new MBeanException(e, "cannot read " + attribute + ": " + e);
        }
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException(attribute.getName() + " is read-only");
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        AttributeList l = new AttributeList();
        for (String n : names) {
            try {
                l.add(new Attribute(n, getAttribute(n)));
            } catch (Exception e) {
                // left out, as the JMX contract says
            }
        }
        return l;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws MBeanException,
            ReflectionException {
        Supplier<Object> op = operations.get(actionName);
        if (op == null || (params != null && params.length > 0)) {
            throw new ReflectionException(new NoSuchMethodException(actionName));
        }
        return op.get();
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        List<MBeanAttributeInfo> as = new ArrayList<>();
        attributes.forEach((n, a) -> as.add(new MBeanAttributeInfo(n, a.type(), n, true, false, false)));
        List<MBeanOperationInfo> os = new ArrayList<>();
        operationTypes.forEach((n, t) -> os.add(new MBeanOperationInfo(n, n, new MBeanParameterInfo[0], t,
                MBeanOperationInfo.INFO)));
        return new MBeanInfo(MetricBean.class.getName(), "Cassandra-compatible " + description,
                as.toArray(MBeanAttributeInfo[]::new), null, os.toArray(MBeanOperationInfo[]::new), null);
    }

    /**
     * Exponentially weighted 1/5/15-minute rates (per second), as Dropwizard's meters compute them with a 5 s tick,
     * ticked lazily when read: the events since the last read count in the first tick that elapsed.
     */
    static final class Rates {
        private static final long TICK_NANOS = 5_000_000_000L;
        private static final double[] ALPHA = {
                1 - Math.exp(-5.0 / 60 / 1), 1 - Math.exp(-5.0 / 60 / 5), 1 - Math.exp(-5.0 / 60 / 15)};
        private final LongSupplier count;
        private final long startNanos = System.nanoTime();
        private final long startCount;
        private long lastTick = startNanos;
        private long lastCount;
        private final double[] rates = new double[3];
        private boolean initialized;

        Rates(LongSupplier count) {
            this.count = count;
            this.startCount = count.getAsLong();
            this.lastCount = startCount;
        }

        synchronized double meanRate() {
            long elapsed = System.nanoTime() - startNanos;
            long n = count.getAsLong() - startCount;
            return elapsed <= 0 ? 0 : n / (elapsed / 1e9);
        }

        synchronized double rate(int which) {
            tick();
            return rates[which];
        }

        private void tick() {
            long now = System.nanoTime();
            long ticks = (now - lastTick) / TICK_NANOS;
            if (ticks <= 0) {
                return;
            }
            long c = count.getAsLong();
            long delta = c - lastCount;
            lastCount = c;
            lastTick += ticks * TICK_NANOS;
            for (long t = 0; t < ticks; t++) {
                double instant = (t == 0 ? delta : 0) / (TICK_NANOS / 1e9);
                for (int i = 0; i < 3; i++) {
                    rates[i] = initialized ? rates[i] + ALPHA[i] * (instant - rates[i]) : instant;
                }
                initialized = true;
            }
        }
    }
}
