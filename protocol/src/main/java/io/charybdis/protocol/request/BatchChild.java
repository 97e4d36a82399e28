package io.charybdis.protocol.request;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * One statement of a BATCH: a query string or a prepared statement id, with its bound values (null for null,
 * {@link QueryOptions#UNSET} for not set).
 */
public sealed interface BatchChild {
    List<ByteBuffer> values();

    record QueryChild(String query, List<ByteBuffer> values) implements BatchChild {
    }

    record PreparedChild(byte[] statementId, List<ByteBuffer> values) implements BatchChild {
    }
}
