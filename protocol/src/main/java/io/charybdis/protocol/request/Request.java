package io.charybdis.protocol.request;

import io.charybdis.protocol.Consistency;

import java.util.List;
import java.util.Map;

/** A decoded request message ({@link Requests#decode}). Byte arrays are copies owned by the record. */
public sealed interface Request {

    /** STARTUP: CQL_VERSION, COMPRESSION ("lz4", "snappy"), DRIVER_NAME, ... */
    record Startup(Map<String, String> options) implements Request {
        public static final String CQL_VERSION = "CQL_VERSION";
        public static final String COMPRESSION = "COMPRESSION";

        public String compression() {
            String c = options.get(COMPRESSION);
            return c == null ? null : c.toLowerCase(java.util.Locale.ROOT);
        }
    }

    record Options() implements Request {
    }

    record Query(String query, QueryOptions options) implements Request {
    }

    /** PREPARE; {@code keyspace} is the v5 per-query keyspace, or null. */
    record Prepare(String query, String keyspace) implements Request {
    }

    /** EXECUTE; {@code resultMetadataId} is v5 only (null in v4). */
    record Execute(byte[] statementId, byte[] resultMetadataId, QueryOptions options) implements Request {
    }

    /**
     * BATCH. {@code serialConsistency} is null when absent, {@code defaultTimestamp} {@link Long#MIN_VALUE},
     * {@code keyspace} null, {@code nowInSeconds} {@link Integer#MIN_VALUE}.
     */
    record Batch(BatchType type, List<BatchChild> children, Consistency consistency, Consistency serialConsistency,
                 long defaultTimestamp, String keyspace, int nowInSeconds) implements Request {
        public boolean hasDefaultTimestamp() {
            return defaultTimestamp != Long.MIN_VALUE;
        }

        public boolean hasNowInSeconds() {
            return nowInSeconds != Integer.MIN_VALUE;
        }
    }

    /** REGISTER: event types (TOPOLOGY_CHANGE, STATUS_CHANGE, SCHEMA_CHANGE). */
    record Register(List<String> eventTypes) implements Request {
    }

    /** AUTH_RESPONSE: the SASL token (null if the client sent a null [bytes]). */
    record AuthResponse(byte[] token) implements Request {
    }
}
