package io.charybdis.node.cql;

import io.charybdis.node.schema.SchemaChange;
import io.charybdis.protocol.response.RowsWriter;

/** What a statement answers; the connection turns it into a RESULT envelope. */
public sealed interface ResultMessage {
    record Void() implements ResultMessage {
    }

    record SetKeyspace(String keyspace) implements ResultMessage {
    }

    record SchemaChanged(SchemaChange change) implements ResultMessage {
    }

    /** Rows already encoded into {@code writer} (begun, filled, not finished). */
    record Rows(RowsWriter writer) implements ResultMessage {
    }

    /** A result with warnings for the client (the WARNING flag). */
    record Warned(ResultMessage inner, java.util.List<String> warnings) implements ResultMessage {
    }

    ResultMessage VOID = new Void();

    static ResultMessage withWarnings(ResultMessage r, java.util.List<String> warnings) {
        return warnings == null || warnings.isEmpty() ? r : new Warned(r, warnings);
    }
}
