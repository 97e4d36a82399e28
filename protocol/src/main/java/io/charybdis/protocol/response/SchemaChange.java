package io.charybdis.protocol.response;

import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * A schema change, as a RESULT (kind Schema_change) or an EVENT:
 * {@code <change><target><keyspace>[<name>[<arg types>]]}; name for TABLE/TYPE/FUNCTION/AGGREGATE, arg types
 * for FUNCTION/AGGREGATE.
 */
public record SchemaChange(Change change, Target target, String keyspace, String name, List<String> argTypes)
        implements Event {

    public enum Change { CREATED, UPDATED, DROPPED }

    public enum Target { KEYSPACE, TABLE, TYPE, FUNCTION, AGGREGATE }

    public SchemaChange {
        argTypes = argTypes == null ? List.of() : List.copyOf(argTypes);
    }

    public static SchemaChange keyspace(Change change, String keyspace) {
        return new SchemaChange(change, Target.KEYSPACE, keyspace, null, List.of());
    }

    public static SchemaChange table(Change change, String keyspace, String table) {
        return new SchemaChange(change, Target.TABLE, keyspace, table, List.of());
    }

    /**
     * This change as a client of {@code version} sees it: v3 has no FUNCTION or AGGREGATE target, so Cassandra
     * reports those changes as an update of their keyspace.
     */
    public SchemaChange forVersion(ProtocolVersion version) {
        if (!version.isAtLeast(ProtocolVersion.V4) && (target == Target.FUNCTION || target == Target.AGGREGATE)) {
            return keyspace(Change.UPDATED, keyspace);
        }
        return this;
    }

    @Override
    public String type() {
        return "SCHEMA_CHANGE";
    }

    @Override
    public void writeBody(ByteBuf out) {
        Wire.writeString(out, change.name());
        Wire.writeString(out, target.name());
        Wire.writeString(out, keyspace);
        if (target != Target.KEYSPACE) {
            Wire.writeString(out, name);
            if (target == Target.FUNCTION || target == Target.AGGREGATE) {
                Wire.writeStringList(out, argTypes);
            }
        }
    }
}
