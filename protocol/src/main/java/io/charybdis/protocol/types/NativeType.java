package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;

/**
 * The native CQL types. Java values: ascii/text {@code String}; bigint/counter {@code Long}; blob
 * {@code ByteBuffer}; boolean; decimal {@code BigDecimal}; double; float; int {@code Integer}; timestamp
 * {@code Instant} (decompose also takes {@code Long} millis and {@code Date}); uuid/timeuuid {@code UUID}; varint
 * {@code BigInteger}; inet {@code InetAddress}; date {@code LocalDate} (wire: unsigned days with 2^31 = epoch;
 * decompose also takes the raw {@code Integer}); time {@code Long} nanoseconds of the day (decompose also takes
 * {@code LocalTime}); smallint {@code Short}; tinyint {@code Byte}; duration {@link CqlDuration}; empty: always
 * null / empty.
 */
public enum NativeType implements DataType {
    ASCII(0x01, "ascii", "AsciiType", -1),
    BIGINT(0x02, "bigint", "LongType", 8),
    BLOB(0x03, "blob", "BytesType", -1),
    BOOLEAN(0x04, "boolean", "BooleanType", 1),
    COUNTER(0x05, "counter", "CounterColumnType", 8),
    DECIMAL(0x06, "decimal", "DecimalType", -1),
    DOUBLE(0x07, "double", "DoubleType", 8),
    FLOAT(0x08, "float", "FloatType", 4),
    INT(0x09, "int", "Int32Type", 4),
    TIMESTAMP(0x0B, "timestamp", "TimestampType", 8),
    UUID(0x0C, "uuid", "UUIDType", 16),
    TEXT(0x0D, "text", "UTF8Type", -1),
    VARINT(0x0E, "varint", "IntegerType", -1),
    TIMEUUID(0x0F, "timeuuid", "TimeUUIDType", 16),
    INET(0x10, "inet", "InetAddressType", -1),
    DATE(0x11, "date", "SimpleDateType", 4),
    TIME(0x12, "time", "TimeType", 8),
    SMALLINT(0x13, "smallint", "ShortType", 2),
    TINYINT(0x14, "tinyint", "ByteType", 1),
    DURATION(0x15, "duration", "DurationType", -1),
    /** Cassandra's EmptyType: only empty values; sent as a custom type. */
    EMPTY(0x00, "empty", "EmptyType", 0);

    private final int protocolCode;
    private final String cqlName;
    private final String marshalName;
    private final int fixedLength;

    NativeType(int protocolCode, String cqlName, String marshalSimpleName, int fixedLength) {
        this.protocolCode = protocolCode;
        this.cqlName = cqlName;
        this.marshalName = MARSHAL_PACKAGE + marshalSimpleName;
        this.fixedLength = fixedLength;
    }

    /** The [option] id (0 = custom, for EMPTY). */
    public int protocolCode() {
        return protocolCode;
    }

    /** The native type with this CQL name (also "varchar"), or null. */
    public static NativeType fromCqlName(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        if (n.equals("varchar")) {
            return TEXT;
        }
        for (NativeType t : values()) {
            if (t.cqlName.equals(n)) {
                return t;
            }
        }
        return null;
    }

    /** The native type with this marshal class (full or simple name), or null. */
    public static NativeType fromMarshalName(String name) {
        String full = name.startsWith(MARSHAL_PACKAGE) ? name : MARSHAL_PACKAGE + name;
        for (NativeType t : values()) {
            if (t.marshalName.equals(full)) {
                return t;
            }
        }
        return null;
    }

    /** The native type with this [option] id, or null. */
    public static NativeType fromProtocolCode(int code) {
        if (code == 0) {
            return null;
        }
        for (NativeType t : values()) {
            if (t.protocolCode == code) {
                return t;
            }
        }
        return null;
    }

    @Override
    public void writeOption(ByteBuf out, ProtocolVersion version) {
        if (this == EMPTY || !version.isAtLeast(minVersion())) {
            out.writeShort(TypeOptions.CUSTOM);
            io.charybdis.protocol.Wire.writeString(out, marshalName);
        } else {
            out.writeShort(protocolCode);
        }
    }

    /**
     * The first protocol version with this type's own option code; older versions see it as a custom type named by
     * its marshal class, as Cassandra writes it (date, time, smallint, tinyint: v4; duration: v5).
     */
    private ProtocolVersion minVersion() {
        return switch (this) {
            case DATE, TIME, SMALLINT, TINYINT -> ProtocolVersion.V4;
            case DURATION -> ProtocolVersion.V5;
            default -> ProtocolVersion.V3;
        };
    }

    @Override
    public String cqlName() {
        return cqlName;
    }

    @Override
    public String marshalName() {
        return marshalName;
    }

    @Override
    public int fixedLength() {
        return fixedLength;
    }

    @Override
    public void validate(ByteBuffer value) {
        if (value != null) {
            NativeCodec.validate(this, value);
        }
    }

    @Override
    public Object compose(ByteBuffer value) {
        if (value == null) {
            return null;
        }
        NativeCodec.validate(this, value);
        return NativeCodec.compose(this, value.duplicate());
    }

    @Override
    public ByteBuffer decompose(Object value) {
        return value == null ? null : NativeCodec.decompose(this, value);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        return value == null ? "null" : NativeCodec.toCqlLiteral(this, value.duplicate());
    }

    @Override
    public int compare(ByteBuffer a, ByteBuffer b) {
        return NativeCodec.compare(this, a, b);
    }

    @Override
    public String toString() {
        return cqlName;
    }
}
