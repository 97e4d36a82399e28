package io.charybdis.protocol.types;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The Java value of a user-defined type: field name to value (null allowed), in field order. */
public record UdtValue(Map<String, Object> fields) {
    public UdtValue {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    public Object get(String field) {
        return fields.get(field);
    }
}
