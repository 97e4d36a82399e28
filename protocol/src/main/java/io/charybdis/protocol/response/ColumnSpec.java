package io.charybdis.protocol.response;

import io.charybdis.protocol.types.DataType;

import java.util.Objects;

/** One column of result or bind-variable metadata. */
public record ColumnSpec(String keyspace, String table, String name, DataType type) {
    public ColumnSpec {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
