package io.charybdis.node.cql.values;

import java.nio.ByteBuffer;

/**
 * A value of a prepared statement: a constant or an expression over bind variables, evaluated per execution.
 * Returns the serialized value, null for CQL null, or {@link Values#UNSET} for an unset bind variable.
 */
@FunctionalInterface
public interface BoundValue {
    ByteBuffer bind(BindContext ctx);

    static BoundValue constant(ByteBuffer v) {
        return ctx -> v == null ? null : v.duplicate();
    }
}
