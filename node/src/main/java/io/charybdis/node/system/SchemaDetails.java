package io.charybdis.node.system;

import io.charybdis.node.cql.syntax.Identifiers;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeResolver;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.ListType;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.SetType;
import io.charybdis.protocol.types.TupleType;
import io.charybdis.protocol.types.UserType;
import io.charybdis.protocol.types.VectorType;

import java.util.ArrayList;
import java.util.List;

/** How Cassandra 5.0 shows a few schema details, shared by {@code system_schema} and DESCRIBE. */
public final class SchemaDetails {
    private SchemaDetails() {
    }

    /**
     * The {@code target} option of an index as Cassandra stores it: the column name quoted when needed, inside
     * {@code keys(..)}, {@code entries(..)}, {@code full(..)} or {@code values(..)}; an index on a whole non-frozen
     * collection targets {@code values(c)}. Custom index targets are kept as given.
     */
    public static String indexTarget(TableMetadata table, IndexMetadata index) {
        String target = index.options().getOrDefault("target", "");
        if ("CUSTOM".equals(index.kind()) || target.isEmpty()) {
            return target;
        }
        String column = index.targetColumn();
        String quoted = Identifiers.quoteIfNeeded(column);
        // keys(..) etc.; a quoted column name may hold parentheses itself ("keys(m)")
        if (!target.startsWith("\"") && target.indexOf('(') > 0) {
            return index.targetKind() + "(" + quoted + ")";
        }
        ColumnMetadata c = table.column(column);
        if (c != null && c.isMultiCell() && Types.isCollection(c.type())) {
            return "values(" + quoted + ")";
        }
        return quoted;
    }

    /** An index's options with {@link #indexTarget} applied. */
    public static java.util.Map<String, String> indexOptions(TableMetadata table, IndexMetadata index) {
        java.util.Map<String, String> m = new java.util.TreeMap<>(index.options());
        if (m.containsKey("target")) {
            m.put("target", indexTarget(table, index));
        }
        return m;
    }

    /**
     * The type of a dropped column as Cassandra records it: user types are replaced by tuples of their fields
     * (the type may since have changed or gone), e.g. {@code frozen<address>} becomes
     * {@code frozen<tuple<text, text, int>>}.
     */
    public static String droppedType(KeyspaceMetadata keyspace, TableMetadata.DroppedColumn dropped) {
        if (keyspace == null || keyspace.types().isEmpty()) {
            return dropped.type();
        }
        try {
            return withoutUserTypes(TypeResolver.parse(dropped.type(), keyspace)).cqlName();
        } catch (RuntimeException e) {
            return dropped.type();
        }
    }

    /** The type with every user type replaced by a frozen tuple of its field types. */
    public static DataType withoutUserTypes(DataType t) {
        if (t instanceof UserType u) {
            return new TupleType(map(u.fieldTypes()));
        }
        if (t instanceof ListType l) {
            return new ListType(withoutUserTypes(l.element()), l.isFrozen());
        }
        if (t instanceof SetType s) {
            return new SetType(withoutUserTypes(s.element()), s.isFrozen());
        }
        if (t instanceof MapType m) {
            return new MapType(withoutUserTypes(m.key()), withoutUserTypes(m.value()), m.isFrozen());
        }
        if (t instanceof TupleType tt) {
            return new TupleType(map(tt.components()));
        }
        if (t instanceof VectorType v) {
            return new VectorType(withoutUserTypes(v.element()), v.dimension());
        }
        return t;
    }

    private static List<DataType> map(List<DataType> types) {
        List<DataType> out = new ArrayList<>(types.size());
        for (DataType f : types) {
            out.add(withoutUserTypes(f));
        }
        return out;
    }
}
