package io.charybdis.node.schema;

import java.util.List;

/** What a DDL statement changed, in the terms of the protocol's SCHEMA_CHANGE result and event. */
public record SchemaChange(Change change, Target target, String keyspace, String name, List<String> argTypes) {
    public enum Change { CREATED, UPDATED, DROPPED }

    public enum Target { KEYSPACE, TABLE, TYPE, FUNCTION, AGGREGATE }

    public static SchemaChange keyspace(Change c, String ks) {
        return new SchemaChange(c, Target.KEYSPACE, ks, null, List.of());
    }

    public static SchemaChange table(Change c, String ks, String table) {
        return new SchemaChange(c, Target.TABLE, ks, table, List.of());
    }

    public static SchemaChange type(Change c, String ks, String type) {
        return new SchemaChange(c, Target.TYPE, ks, type, List.of());
    }
}
