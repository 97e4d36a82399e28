package io.charybdis.node.describe;

import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.ListType;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.SetType;
import io.charybdis.protocol.types.TupleType;
import io.charybdis.protocol.types.UserType;
import io.charybdis.protocol.types.VectorType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which DESCRIBE KEYSPACE prints user types: by name (UTF-8 bytes), each type preceded by the types
 * its fields use (depth first), so that the output can be replayed.
 */
final class TypeOrder {
    private TypeOrder() {
    }

    static List<UserType> dependenciesFirst(Collection<UserType> types) {
        Map<String, UserType> byName = new LinkedHashMap<>();
        for (UserType t : types) {
            byName.put(t.name(), t);
        }
        List<UserType> sorted = new ArrayList<>(types);
        sorted.sort((a, b) -> Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.UTF_8),
                b.name().getBytes(StandardCharsets.UTF_8)));
        Map<String, UserType> out = new LinkedHashMap<>();
        for (UserType t : sorted) {
            visit(t, byName, out);
        }
        return new ArrayList<>(out.values());
    }

    private static void visit(DataType t, Map<String, UserType> byName, Map<String, UserType> out) {
        if (t instanceof UserType u) {
            UserType def = byName.getOrDefault(u.name(), u);
            for (DataType f : def.fieldTypes()) {
                visit(f, byName, out);
            }
            if (byName.containsKey(u.name())) {
                out.putIfAbsent(u.name(), def);
            }
        } else if (t instanceof ListType l) {
            visit(l.element(), byName, out);
        } else if (t instanceof SetType s) {
            visit(s.element(), byName, out);
        } else if (t instanceof MapType m) {
            visit(m.key(), byName, out);
            visit(m.value(), byName, out);
        } else if (t instanceof TupleType tt) {
            for (DataType c : tt.components()) {
                visit(c, byName, out);
            }
        } else if (t instanceof VectorType v) {
            visit(v.element(), byName, out);
        }
    }
}
