package io.charybdis.protocol.request;

import io.charybdis.protocol.Consistency;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The {@code <query_parameters>} of QUERY and EXECUTE.
 *
 * <pre>
 *   &lt;consistency&gt;&lt;flags&gt;[&lt;n&gt;[name_1]&lt;value_1&gt;...][&lt;result_page_size&gt;][&lt;paging_state&gt;]
 *   [&lt;serial_consistency&gt;][&lt;timestamp&gt;][&lt;keyspace&gt;][&lt;now_in_seconds&gt;]
 * </pre>
 * flags is a [byte] in v4 and an [int] in v5 (which adds keyspace 0x80 and now_in_seconds 0x100).
 *
 * @param values        bound values: null for null (-1), {@link #UNSET} (compare by identity) for not set (-2)
 * @param valueNames    names when the client bound by name (flag 0x40), else null
 * @param pageSize      -1 when absent or not positive (no paging)
 * @param pagingState   null when absent
 * @param serialConsistency null when absent (meaning SERIAL)
 * @param defaultTimestamp {@link Long#MIN_VALUE} when absent
 * @param keyspace      v5 per-query keyspace, or null
 * @param nowInSeconds  v5, {@link Integer#MIN_VALUE} when absent
 */
public record QueryOptions(Consistency consistency, List<ByteBuffer> values, List<String> valueNames,
                           boolean skipMetadata, int pageSize, byte[] pagingState, Consistency serialConsistency,
                           long defaultTimestamp, String keyspace, int nowInSeconds) {

    /** The "not set" value marker; always compare with {@code ==}. */
    public static final ByteBuffer UNSET = ByteBuffer.allocate(0).asReadOnlyBuffer();

    public static final int VALUES = 0x01;
    public static final int SKIP_METADATA = 0x02;
    public static final int PAGE_SIZE = 0x04;
    public static final int WITH_PAGING_STATE = 0x08;
    public static final int WITH_SERIAL_CONSISTENCY = 0x10;
    public static final int WITH_DEFAULT_TIMESTAMP = 0x20;
    public static final int WITH_NAMES_FOR_VALUES = 0x40;
    public static final int WITH_KEYSPACE = 0x80;
    public static final int WITH_NOW_IN_SECONDS = 0x100;

    /** Options with only a consistency level, as for a plain query. */
    public static QueryOptions of(Consistency consistency) {
        return new QueryOptions(consistency, List.of(), null, false, -1, null, null, Long.MIN_VALUE, null,
                Integer.MIN_VALUE);
    }

    public static boolean isUnset(ByteBuffer value) {
        return value == UNSET;
    }

    public boolean hasPaging() {
        return pageSize > 0;
    }

    public boolean hasDefaultTimestamp() {
        return defaultTimestamp != Long.MIN_VALUE;
    }

    public boolean hasNowInSeconds() {
        return nowInSeconds != Integer.MIN_VALUE;
    }

    /** The serial consistency, SERIAL when absent. */
    public Consistency serialConsistencyOrDefault() {
        return serialConsistency == null ? Consistency.SERIAL : serialConsistency;
    }
}
