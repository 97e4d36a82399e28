package io.charybdis.node.schema;

/** The shape of a CQL type, for dispatch in the CQL layer (see {@link Types}). */
public enum TypeKind {
    ASCII, BIGINT, BLOB, BOOLEAN, COUNTER, DATE, DECIMAL, DOUBLE, DURATION, FLOAT, INET, INT, SMALLINT, TEXT, TIME,
    TIMESTAMP, TIMEUUID, TINYINT, UUID, VARINT, EMPTY, LIST, SET, MAP, TUPLE, UDT, VECTOR, CUSTOM;

    public boolean isCollection() {
        return this == LIST || this == SET || this == MAP;
    }
}
