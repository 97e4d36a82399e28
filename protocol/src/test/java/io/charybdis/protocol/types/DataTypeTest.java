package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataTypeTest {

    private static ByteBuffer bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return ByteBuffer.wrap(out);
    }

    private static String hex(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return ByteBufUtil.hexDump(a);
    }

    static final UserType ADDRESS = new UserType("ks", "address", List.of("street", "zip"),
            List.of(DataType.TEXT, DataType.INT), true);

    /** Values of each type, in ascending Cassandra order. */
    static Map<DataType, List<Object>> orderedSamples() throws Exception {
        Map<DataType, List<Object>> m = new LinkedHashMap<>();
        m.put(DataType.ASCII, List.of("", "A", "B", "a", "ab"));
        m.put(DataType.TEXT, List.of("", "Z", "a", "é", "日本"));
        m.put(DataType.BIGINT, List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE));
        m.put(DataType.COUNTER, List.of(-5L, 0L, 5L));
        m.put(DataType.BLOB, List.of(ByteBuffer.allocate(0), bytes(0x00), bytes(0x00, 0x00), bytes(0x7F),
                bytes(0x80), bytes(0xFF)));
        m.put(DataType.BOOLEAN, List.of(false, true));
        m.put(DataType.DECIMAL, List.of(new BigDecimal("-1E+10"), new BigDecimal("-0.5"), new BigDecimal("0.001"),
                new BigDecimal("1.10"), new BigDecimal("12345678901234567890.123")));
        m.put(DataType.DOUBLE, List.of(Double.NEGATIVE_INFINITY, -1.5, -0.0, 0.0, 2.5, Double.MAX_VALUE,
                Double.POSITIVE_INFINITY, Double.NaN));
        m.put(DataType.FLOAT, List.of(Float.NEGATIVE_INFINITY, -1.5f, 0.0f, 3.25f, Float.NaN));
        m.put(DataType.INT, List.of(Integer.MIN_VALUE, -1, 0, 1, 256, Integer.MAX_VALUE));
        m.put(DataType.TIMESTAMP, List.of(Instant.ofEpochMilli(-1000), Instant.EPOCH,
                Instant.parse("2024-02-29T12:34:56.789Z")));
        m.put(DataType.UUID, List.of(
                UUID.fromString("00000000-0000-1000-8000-000000000000"),
                UUID.fromString("ffffffff-ffff-1000-8000-000000000000"),
                UUID.fromString("00000000-0000-1001-8000-000000000000"),
                UUID.fromString("00000000-0000-2000-8000-000000000000"),
                UUID.fromString("00000000-0000-4000-8000-000000000000"),
                UUID.fromString("00000000-0000-4000-ffff-000000000000"),
                UUID.fromString("ffffffff-0000-4000-0000-000000000000")));
        m.put(DataType.TIMEUUID, List.of(
                UUID.fromString("ffffffff-ffff-1000-8000-000000000000"),
                UUID.fromString("00000000-0000-1001-ff00-000000000000"),
                UUID.fromString("00000000-0000-1001-0000-000000000000"),
                UUID.fromString("00000000-0000-1001-7f00-000000000000"),
                UUID.fromString("00000000-0001-1001-0000-000000000000")));
        m.put(DataType.VARINT, List.of(new BigInteger("-100000000000000000000"), BigInteger.valueOf(-1),
                BigInteger.ZERO, BigInteger.valueOf(127), BigInteger.valueOf(128),
                new BigInteger("100000000000000000000")));
        // unsigned bytes, as Cassandra's InetAddressType: ::1 (00...) sorts before IPv4 1.2.3.4
        m.put(DataType.INET, List.of(InetAddress.getByName("::1"), InetAddress.getByName("1.2.3.4"),
                InetAddress.getByName("10.0.0.1")));
        m.put(DataType.DATE, List.of(LocalDate.of(-5000, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.EPOCH,
                LocalDate.of(2024, 2, 29)));
        m.put(DataType.TIME, List.of(0L, 1L, 43_200_000_000_000L, 86_399_999_999_999L));
        m.put(DataType.SMALLINT, List.of((short) -32768, (short) -1, (short) 0, (short) 32767));
        m.put(DataType.TINYINT, List.of((byte) -128, (byte) 0, (byte) 127));
        m.put(DataType.list(DataType.INT), List.of(List.of(), List.of(-1), List.of(1), List.of(1, 2),
                List.of(2)));
        m.put(DataType.set(DataType.TEXT), List.of(Set.of(), Set.of("a"), Set.of("a", "b"), Set.of("b")));
        m.put(DataType.map(DataType.INT, DataType.TEXT), List.of(Map.of(), Map.of(1, "a"), Map.of(1, "b"),
                Map.of(1, "b", 2, "a"), Map.of(2, "a")));
        m.put(DataType.tuple(DataType.INT, DataType.TEXT), List.of(TupleValue.of(null, "z"), TupleValue.of(1, null),
                TupleValue.of(1, "a"), TupleValue.of(2, "a")));
        m.put(ADDRESS, List.of(new UdtValue(Map.of("street", "a", "zip", 2)),
                new UdtValue(Map.of("street", "b", "zip", 1))));
        m.put(DataType.vector(DataType.FLOAT, 3), List.of(List.of(-1f, 0f, 0f), List.of(0f, 0f, 1f),
                List.of(0f, 1f, 0f)));
        m.put(DataType.vector(DataType.TEXT, 2), List.of(List.of("a", "b"), List.of("a", "bb"), List.of("b", "")));
        return m;
    }

    @Test
    void shouldRoundTripAndOrderValuesOfEveryType() throws Exception {
        for (Map.Entry<DataType, List<Object>> e : orderedSamples().entrySet()) {
            DataType type = e.getKey();
            List<ByteBuffer> serialized = new ArrayList<>();
            for (Object v : e.getValue()) {
                ByteBuffer b = type.decompose(v);
                type.validate(b);
                Object back = type.compose(b);
                assertThat(normalize(back)).as("%s round trip of %s", type, v).isEqualTo(normalize(v));
                serialized.add(b);
            }
            for (int i = 0; i < serialized.size(); i++) {
                for (int j = 0; j < serialized.size(); j++) {
                    assertThat(Integer.signum(type.compare(serialized.get(i), serialized.get(j))))
                            .as("%s compare(%s, %s)", type, e.getValue().get(i), e.getValue().get(j))
                            .isEqualTo(Integer.signum(Integer.compare(i, j)));
                }
            }
        }
    }

    private static Object normalize(Object v) {
        if (v instanceof Set<?> s) {
            return new java.util.HashSet<>(s);
        }
        if (v instanceof Map<?, ?> m) {
            return new java.util.HashMap<>(m);
        }
        if (v instanceof ByteBuffer b) {
            return hex(b);
        }
        return v;
    }

    @Test
    void shouldRoundTripDurations() {
        for (CqlDuration d : List.of(new CqlDuration(0, 0, 0), new CqlDuration(14, 3, 3_600_000_000_123L),
                new CqlDuration(-1, -2, -3), new CqlDuration(Integer.MAX_VALUE, 0, Long.MAX_VALUE))) {
            ByteBuffer b = DataType.DURATION.decompose(d);
            assertThat(DataType.DURATION.compose(b)).isEqualTo(d);
        }
        assertThat(hex(DataType.DURATION.decompose(new CqlDuration(1, 2, 3)))).isEqualTo("020406");
        assertThat(new CqlDuration(14, 3, 3_723_004_005_006L).toString()).isEqualTo("1y2mo3d1h2m3s4ms5us6ns");
        assertThat(new CqlDuration(0, -3, 0).toString()).isEqualTo("-3d");
        assertThatThrownBy(() -> new CqlDuration(1, -1, 0)).isInstanceOf(MarshalException.class)
                .hasMessage("The duration months, days and nanoseconds must be all of the same sign (1, -1, 0)");
        assertThatThrownBy(() -> DataType.DURATION.validate(bytes(0x02, 0x01, 0x00)))
                .isInstanceOf(MarshalException.class).hasMessageContaining("same sign");
    }

    @Test
    void shouldRejectDurationMonthsOrDaysBeyond32BitsAsCassandraDoes() {
        assertThatThrownBy(() -> DataType.DURATION.validate(duration(Long.MAX_VALUE, 1, 0)))
                .isInstanceOf(MarshalException.class)
                .hasMessage("The duration months must be a 32 bits integer but was: 9223372036854775807");
        assertThatThrownBy(() -> DataType.DURATION.validate(duration(1, 1L << 32, 0)))
                .isInstanceOf(MarshalException.class)
                .hasMessage("The duration days must be a 32 bits integer but was: 4294967296");
    }

    private static ByteBuffer duration(long months, long days, long nanos) {
        ByteBuffer b = ByteBuffer.allocate(3 * 9);
        VInt.writeSigned(b, months);
        VInt.writeSigned(b, days);
        VInt.writeSigned(b, nanos);
        return b.flip();
    }

    @Test
    void shouldEncodeNativeValuesAsCassandraDoes() {
        assertThat(hex(DataType.INT.decompose(1))).isEqualTo("00000001");
        assertThat(hex(DataType.BIGINT.decompose(-2L))).isEqualTo("fffffffffffffffe");
        assertThat(hex(DataType.DATE.decompose(LocalDate.EPOCH))).isEqualTo("80000000");
        assertThat(hex(DataType.DECIMAL.decompose(new BigDecimal("1.23")))).isEqualTo("00000002" + "7b");
        assertThat(hex(DataType.VARINT.decompose(BigInteger.valueOf(128)))).isEqualTo("0080");
        assertThat(hex(DataType.BOOLEAN.decompose(true))).isEqualTo("01");
        assertThat(hex(DataType.vector(DataType.FLOAT, 2).decompose(new float[] {1f, 2f})))
                .isEqualTo("3f80000040000000");
        assertThat(hex(DataType.vector(DataType.TEXT, 2).decompose(List.of("a", "")))).isEqualTo("016100");
        assertThat(hex(DataType.list(DataType.INT).decompose(List.of(7))))
                .isEqualTo("00000001" + "00000004" + "00000007");
        assertThat(hex(DataType.tuple(DataType.INT, DataType.INT).decompose(TupleValue.of(1, null))))
                .isEqualTo("00000004" + "00000001" + "ffffffff");
    }

    @Test
    void shouldSortAndDeduplicateSetsAndMapsWhenDecomposing() {
        ByteBuffer set = DataType.set(DataType.INT).decompose(List.of(3, 1, 2, 1));
        assertThat(DataType.set(DataType.INT).compose(set)).containsExactly(1, 2, 3);
        Map<Object, Object> in = new LinkedHashMap<>();
        in.put("b", 1);
        in.put("a", 2);
        ByteBuffer map = DataType.map(DataType.TEXT, DataType.INT).decompose(in);
        assertThat(DataType.map(DataType.TEXT, DataType.INT).compose(map).keySet()).containsExactly("a", "b");
    }

    @Test
    void shouldComposeEmptyValuesAsNullForNumbersAndSortThemFirst() {
        ByteBuffer empty = ByteBuffer.allocate(0);
        assertThat(DataType.INT.compose(empty)).isNull();
        assertThat(DataType.TEXT.compose(empty)).isEqualTo("");
        assertThat(DataType.INT.compare(empty, DataType.INT.decompose(Integer.MIN_VALUE))).isNegative();
        assertThat(DataType.UUID.compare(empty, DataType.UUID.decompose(new UUID(0, 0)))).isNegative();
        assertThat(DataType.INT.compose(null)).isNull();
        assertThat(DataType.INT.decompose(null)).isNull();
    }

    @Test
    void shouldRejectInvalidValuesWithCassandraMessages() {
        assertThatThrownBy(() -> DataType.INT.validate(bytes(1, 2, 3)))
                .isInstanceOf(MarshalException.class).hasMessage("Expected 4 or 0 byte int (3)");
        assertThatThrownBy(() -> DataType.BIGINT.validate(bytes(1)))
                .hasMessage("Expected 8 or 0 byte long (1)");
        assertThatThrownBy(() -> DataType.SMALLINT.validate(bytes()))
                .hasMessage("Expected 2 bytes for a smallint (0)");
        assertThatThrownBy(() -> DataType.TINYINT.validate(bytes(1, 2)))
                .hasMessage("Expected 1 byte for a tinyint (2)");
        assertThatThrownBy(() -> DataType.FLOAT.validate(bytes(1)))
                .hasMessage("Expected 4 or 0 byte value for a float (1)");
        assertThatThrownBy(() -> DataType.DOUBLE.validate(bytes(1)))
                .hasMessage("Expected 8 or 0 byte value for a double (1)");
        assertThatThrownBy(() -> DataType.BOOLEAN.validate(bytes(1, 1)))
                .hasMessage("Expected 1 or 0 byte value (2)");
        assertThatThrownBy(() -> DataType.TIMESTAMP.validate(bytes(1, 1)))
                .hasMessage("Expected 8 or 0 byte long for date (2)");
        assertThatThrownBy(() -> DataType.DATE.validate(bytes(1)))
                .hasMessage("Expected 4 byte long for date (1)");
        assertThatThrownBy(() -> DataType.UUID.validate(bytes(1)))
                .hasMessage("UUID should be 16 or 0 bytes (1)");
        assertThatThrownBy(() -> DataType.TIMEUUID.validate(DataType.UUID.decompose(UUID.randomUUID())))
                .hasMessage("Invalid version for TimeUUID type.");
        assertThatThrownBy(() -> DataType.ASCII.validate(bytes(0x41, 0xC3)))
                .hasMessage("Invalid byte for ascii: -61");
        assertThatThrownBy(() -> DataType.TEXT.validate(bytes(0xC3)))
                .hasMessage("String didn't validate.");
        assertThatThrownBy(() -> DataType.INET.validate(bytes(1, 2, 3)))
                .isInstanceOf(MarshalException.class);
        assertThatThrownBy(() -> DataType.DECIMAL.validate(bytes(1, 2)))
                .hasMessage("Expected 0 or at least 4 bytes (2)");
        assertThatThrownBy(() -> DataType.TIME.validate(DataType.BIGINT.decompose(86_400_000_000_000L)))
                .isInstanceOf(MarshalException.class);
        assertThatThrownBy(() -> DataType.EMPTY.validate(bytes(1)))
                .hasMessage("EmptyType only accept empty values");
        assertThatThrownBy(() -> DataType.list(DataType.INT).validate(bytes(0, 0, 0, 1, 0, 0, 0, 4, 1)))
                .isInstanceOf(MarshalException.class).hasMessageContaining("Not enough bytes");
        assertThatThrownBy(() -> DataType.list(DataType.INT).validate(bytes(0, 0, 0, 1, 0, 0, 0, 3, 1, 2, 3)))
                .hasMessage("Expected 4 or 0 byte int (3)");
        assertThatThrownBy(() -> DataType.list(DataType.INT).validate(bytes(0, 0, 0, 0, 9)))
                .hasMessage("Unexpected extraneous bytes after list value");
        assertThatThrownBy(() -> DataType.vector(DataType.FLOAT, 2).validate(bytes(0, 0, 0, 0)))
                .isInstanceOf(MarshalException.class);
        assertThatThrownBy(() -> DataType.INT.decompose("x")).isInstanceOf(MarshalException.class);
        assertThatThrownBy(() -> DataType.SMALLINT.decompose(70000)).isInstanceOf(MarshalException.class);
    }

    @Test
    void shouldPrintCqlNamesAsCassandra() {
        assertThat(DataType.map(DataType.TEXT, DataType.list(DataType.INT).freeze()).cqlName())
                .isEqualTo("map<text, frozen<list<int>>>");
        assertThat(DataType.set(DataType.TIMEUUID).freeze().cqlName()).isEqualTo("frozen<set<timeuuid>>");
        assertThat(DataType.tuple(DataType.INT, DataType.TEXT).cqlName()).isEqualTo("frozen<tuple<int, text>>");
        assertThat(ADDRESS.cqlName()).isEqualTo("frozen<address>");
        assertThat(new UserType("ks", "My Type", List.of(), List.of(), false).cqlName()).isEqualTo("\"My Type\"");
        assertThat(DataType.vector(DataType.FLOAT, 3).cqlName()).isEqualTo("vector<float, 3>");
        assertThat(new CustomType("com.example.T").cqlName()).isEqualTo("'com.example.T'");
        assertThat(NativeType.fromCqlName("VARCHAR")).isEqualTo(DataType.TEXT);
    }

    @Test
    void shouldPrintCqlLiterals() throws Exception {
        assertThat(DataType.TEXT.toCqlLiteral(DataType.TEXT.decompose("it's"))).isEqualTo("'it''s'");
        assertThat(DataType.BLOB.toCqlLiteral(bytes(0xCA, 0xFE))).isEqualTo("0xcafe");
        assertThat(DataType.BLOB.toCqlLiteral(bytes())).isEqualTo("0x");
        assertThat(DataType.INT.toCqlLiteral(DataType.INT.decompose(-3))).isEqualTo("-3");
        assertThat(DataType.BOOLEAN.toCqlLiteral(DataType.BOOLEAN.decompose(true))).isEqualTo("true");
        assertThat(DataType.TIMESTAMP.toCqlLiteral(DataType.TIMESTAMP.decompose(
                Instant.parse("2024-02-29T12:34:56.789Z")))).isEqualTo("'2024-02-29T12:34:56.789Z'");
        assertThat(DataType.DATE.toCqlLiteral(DataType.DATE.decompose(LocalDate.of(2024, 1, 2))))
                .isEqualTo("'2024-01-02'");
        assertThat(DataType.TIME.toCqlLiteral(DataType.TIME.decompose(3_723_000_000_005L)))
                .isEqualTo("'01:02:03.000000005'");
        assertThat(DataType.INET.toCqlLiteral(DataType.INET.decompose(InetAddress.getByName("10.1.2.3"))))
                .isEqualTo("'10.1.2.3'");
        UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        assertThat(DataType.TIMEUUID.toCqlLiteral(DataType.TIMEUUID.decompose(u))).isEqualTo(u.toString());
        assertThat(DataType.DURATION.toCqlLiteral(DataType.DURATION.decompose(new CqlDuration(0, 1, 0))))
                .isEqualTo("1d");
        assertThat(DataType.DOUBLE.toCqlLiteral(DataType.DOUBLE.decompose(Double.NaN))).isEqualTo("NaN");
        MapType m = DataType.map(DataType.TEXT, DataType.list(DataType.INT).freeze());
        assertThat(m.toCqlLiteral(m.decompose(Map.of("a", List.of(1, 2))))).isEqualTo("{'a': [1, 2]}");
        assertThat(DataType.set(DataType.INT).toCqlLiteral(DataType.set(DataType.INT).decompose(Set.of(2, 1))))
                .isEqualTo("{1, 2}");
        TupleType t = DataType.tuple(DataType.INT, DataType.TEXT);
        assertThat(t.toCqlLiteral(t.decompose(TupleValue.of(1, null)))).isEqualTo("(1, null)");
        assertThat(ADDRESS.toCqlLiteral(ADDRESS.decompose(Map.of("street", "x", "zip", 1))))
                .isEqualTo("{street: 'x', zip: 1}");
        VectorType v = DataType.vector(DataType.FLOAT, 2);
        assertThat(v.toCqlLiteral(v.decompose(List.of(1.5f, 2f)))).isEqualTo("[1.5, 2.0]");
        assertThat(DataType.INT.toCqlLiteral(null)).isEqualTo("null");
    }

    @Test
    void shouldWriteTypeOptionsAndReadThemBack() {
        List<DataType> types = new ArrayList<>(Arrays.asList(NativeType.values()));
        types.addAll(List.of(DataType.list(DataType.INT), DataType.set(DataType.TEXT),
                DataType.map(DataType.TEXT, DataType.list(DataType.INT).freeze()),
                DataType.tuple(DataType.INT, DataType.BLOB), ADDRESS.freeze(),
                new UserType("ks", "address", List.of("street", "zip"), List.of(DataType.TEXT, DataType.INT), false),
                DataType.vector(DataType.FLOAT, 3), DataType.vector(DataType.list(DataType.INT).freeze(), 2),
                new CustomType("com.example.MyType")));
        for (DataType t : types) {
            for (ProtocolVersion v : ProtocolVersion.values()) {
                ByteBuf b = Unpooled.buffer();
                t.writeOption(b, v);
                DataType back = DataType.readOption(b);
                assertThat(b.isReadable()).isFalse();
                b.release();
                // frozenness of the top level is not on the wire
                assertThat(unfrozen(back.cqlName())).as("%s in %s", t, v).isEqualTo(unfrozen(t.cqlName()));
            }
        }
    }

    private static String unfrozen(String name) {
        return name.startsWith("frozen<") && !name.startsWith("frozen<tuple")
                ? name.substring(7, name.length() - 1) : name;
    }

    @Test
    void shouldWriteWireOptionsByteByByte() {
        ByteBuf b = Unpooled.buffer();
        DataType.map(DataType.TEXT, DataType.list(DataType.INT)).writeOption(b, ProtocolVersion.V4);
        assertThat(ByteBufUtil.hexDump(b)).isEqualTo("0021" + "000d" + "0020" + "0009");
        b.clear();
        DataType.DURATION.writeOption(b, ProtocolVersion.V5);
        assertThat(ByteBufUtil.hexDump(b)).isEqualTo("0015");
        b.clear();
        DataType.vector(DataType.FLOAT, 3).writeOption(b, ProtocolVersion.V5);
        b.skipBytes(2);
        assertThat(io.charybdis.protocol.Wire.readString(b))
                .isEqualTo("org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType,3)");
        b.clear();
        DataType.DURATION.writeOption(b, ProtocolVersion.V4);
        b.skipBytes(2);
        assertThat(io.charybdis.protocol.Wire.readString(b)).isEqualTo("org.apache.cassandra.db.marshal.DurationType");
        b.release();
    }

    @Test
    void shouldParseMarshalNames() {
        assertThat(TypeOptions.parseMarshal("org.apache.cassandra.db.marshal.MapType("
                + "org.apache.cassandra.db.marshal.UTF8Type,org.apache.cassandra.db.marshal.FrozenType("
                + "org.apache.cassandra.db.marshal.ListType(org.apache.cassandra.db.marshal.Int32Type)))"))
                .isEqualTo(DataType.map(DataType.TEXT, DataType.list(DataType.INT).freeze()));
        assertThat(TypeOptions.parseMarshal(ADDRESS.marshalName())).isEqualTo(ADDRESS);
        assertThat(TypeOptions.parseMarshal("org.apache.cassandra.db.marshal.ReversedType("
                + "org.apache.cassandra.db.marshal.TimestampType)")).isEqualTo(DataType.TIMESTAMP);
        assertThat(TypeOptions.parseMarshal("com.example.Foo")).isEqualTo(new CustomType("com.example.Foo"));
    }

    @ParameterizedTest
    @EnumSource(NativeType.class)
    void shouldHaveMarshalNameThatParsesBack(NativeType t) {
        assertThat(TypeOptions.parseMarshal(t.marshalName())).isEqualTo(t);
    }
}
