package io.charybdis.node.cql.values;

import io.charybdis.protocol.types.DataType;

/** What a bind marker receives: shown to drivers as the prepared statement's variable metadata. */
public record BindVariable(String keyspace, String table, String name, DataType type) {
}
