package io.charybdis.node.schema;

/** Told of every schema change after it is durable (drivers get SCHEMA_CHANGE events from it). */
@FunctionalInterface
public interface SchemaListener {
    void onSchemaChange(SchemaChange change);
}
