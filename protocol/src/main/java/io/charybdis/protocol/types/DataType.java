package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;

/**
 * An immutable CQL type descriptor with its value codec.
 *
 * <p>Values are serialized {@link ByteBuffer}s read from position to limit and never modified; a null buffer is a
 * null value. {@link #compose}/{@link #decompose} convert to and from natural Java types (see each type);
 * {@link #compare} is Cassandra's order for the type (empty values first), used for set/map ordering and
 * clustering.
 */
public sealed interface DataType
        permits NativeType, ListType, SetType, MapType, TupleType, UserType, VectorType, CustomType {

    NativeType ASCII = NativeType.ASCII;
    NativeType BIGINT = NativeType.BIGINT;
    NativeType BLOB = NativeType.BLOB;
    NativeType BOOLEAN = NativeType.BOOLEAN;
    NativeType COUNTER = NativeType.COUNTER;
    NativeType DECIMAL = NativeType.DECIMAL;
    NativeType DOUBLE = NativeType.DOUBLE;
    NativeType FLOAT = NativeType.FLOAT;
    NativeType INT = NativeType.INT;
    NativeType TEXT = NativeType.TEXT;
    NativeType VARCHAR = NativeType.TEXT;
    NativeType TIMESTAMP = NativeType.TIMESTAMP;
    NativeType UUID = NativeType.UUID;
    NativeType TIMEUUID = NativeType.TIMEUUID;
    NativeType VARINT = NativeType.VARINT;
    NativeType INET = NativeType.INET;
    NativeType DATE = NativeType.DATE;
    NativeType TIME = NativeType.TIME;
    NativeType SMALLINT = NativeType.SMALLINT;
    NativeType TINYINT = NativeType.TINYINT;
    NativeType DURATION = NativeType.DURATION;
    NativeType EMPTY = NativeType.EMPTY;

    String MARSHAL_PACKAGE = "org.apache.cassandra.db.marshal.";

    static ListType list(DataType element) {
        return new ListType(element, false);
    }

    static SetType set(DataType element) {
        return new SetType(element, false);
    }

    static MapType map(DataType key, DataType value) {
        return new MapType(key, value, false);
    }

    static TupleType tuple(DataType... components) {
        return new TupleType(java.util.List.of(components));
    }

    static VectorType vector(DataType element, int dimension) {
        return new VectorType(element, dimension);
    }

    /** Writes this type as an [option] (id and value) for result and prepared metadata. */
    void writeOption(ByteBuf out, ProtocolVersion version);

    /** Reads an [option] as written by {@link #writeOption}. */
    static DataType readOption(ByteBuf in) {
        return TypeOptions.read(in);
    }

    /** The type as Cassandra prints it in CQL and system_schema, e.g. {@code map<text, frozen<list<int>>>}. */
    String cqlName();

    /** The Cassandra marshal class form, e.g. {@code org.apache.cassandra.db.marshal.ListType(...)}. */
    String marshalName();

    /** True for frozen collections and UDTs, and for types that are always frozen (tuples, vectors). */
    default boolean isFrozen() {
        return true;
    }

    /** True for non-frozen collections and UDTs (stored cell by cell). */
    default boolean isMultiCell() {
        return !isFrozen();
    }

    /** The frozen form of this type. */
    default DataType freeze() {
        return this;
    }

    /** Size of every serialized value if fixed (int: 4), else -1. */
    default int fixedLength() {
        return -1;
    }

    /** @throws MarshalException if {@code value} is not a valid serialization */
    void validate(ByteBuffer value);

    /** The Java value of a serialized one; null for null (and for empty fixed-size numerics). */
    Object compose(ByteBuffer value);

    /** The serialized form of a Java value; null for null. @throws MarshalException for a wrong Java type */
    ByteBuffer decompose(Object value);

    /** The value as CQL text, as Cassandra and cqlsh print it ({@code 'it''s'}, {@code 0xcafe}, ...). */
    String toCqlLiteral(ByteBuffer value);

    /** Cassandra's order for values of this type. */
    int compare(ByteBuffer a, ByteBuffer b);
}
