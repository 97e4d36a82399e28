package io.charybdis.node.cql.values;

import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Function;

/**
 * The bound values of one execution, plus the statement's notion of "now", and the values its non-deterministic
 * function calls ({@code now()}, {@code uuid()}) took in this execution: as in Cassandra, such a call is evaluated
 * once per execution of the statement, so that the partition key a lightweight transaction is routed and checked by
 * is the one it writes.
 */
public final class BindContext {
    private final List<ByteBuffer> values;
    private final long nowMicros;
    private final int nowInSeconds;
    /** The values of this execution's non-deterministic calls, by the call; null until one is evaluated. */
    private IdentityHashMap<Object, ByteBuffer> evaluated;

    public BindContext(List<ByteBuffer> values, long nowMicros, int nowInSeconds) {
        this.values = values;
        this.nowMicros = nowMicros;
        this.nowInSeconds = nowInSeconds;
    }

    public List<ByteBuffer> values() {
        return values;
    }

    public long nowMicros() {
        return nowMicros;
    }

    public int nowInSeconds() {
        return nowInSeconds;
    }

    public ByteBuffer value(int index) {
        return values.get(index);
    }

    /**
     * The value {@code call} took in this execution, computing it the first time. The steps of one execution run one
     * after the other (possibly on different shards), never at once, so the map needs no lock.
     */
    ByteBuffer once(Object call, Function<BindContext, ByteBuffer> compute) {
        if (evaluated == null) {
            evaluated = new IdentityHashMap<>(4);
        }
        ByteBuffer v = evaluated.get(call);
        if (v == null && !evaluated.containsKey(call)) {
            v = compute.apply(this);
            evaluated.put(call, v);
        }
        return v == null ? null : v.duplicate();
    }
}
