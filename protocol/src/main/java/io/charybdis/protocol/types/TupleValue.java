package io.charybdis.protocol.types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The Java value of a tuple: its components in order, null where a component is null. */
public record TupleValue(List<Object> values) {
    public TupleValue {
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }

    public static TupleValue of(Object... values) {
        return new TupleValue(java.util.Arrays.asList(values));
    }
}
