package io.charybdis.node.cql.values;

import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.TupleType;
import io.charybdis.protocol.types.UserType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonTest {
    private static void roundTrip(DataType type, Object javaValue, String json) {
        ByteBuffer v = type.decompose(javaValue);
        assertThat(Json.format(type, v)).isEqualTo(json);
        assertThat(type.compare(Json.toValue(Json.parse(json), type, "c"), v)).isZero();
    }

    @Test
    void shouldWriteAndReadNativeTypesAsCassandraDoes() {
        roundTrip(NativeType.INT, 42, "42");
        roundTrip(NativeType.BIGINT, -7L, "-7");
        roundTrip(NativeType.TEXT, "a\"b\n", "\"a\\\"b\\n\"");
        roundTrip(NativeType.BOOLEAN, true, "true");
        roundTrip(NativeType.BLOB, ByteBuffer.wrap(new byte[]{(byte) 0xca, (byte) 0xfe}), "\"0xcafe\"");
        roundTrip(NativeType.TIMESTAMP, java.time.Instant.ofEpochMilli(1296705900000L), "\"2011-02-03 04:05:00.000Z\"");
        roundTrip(NativeType.UUID, java.util.UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
                "\"123e4567-e89b-12d3-a456-426614174000\"");
        roundTrip(NativeType.DOUBLE, 1.5, "1.5");
    }

    @Test
    void shouldWriteCollectionsTuplesAndUdts() {
        roundTrip(Types.listOf(NativeType.INT, false), List.of(3, 1, 2), "[3, 1, 2]");
        roundTrip(Types.setOf(NativeType.TEXT, false), Set.of("a"), "[\"a\"]");
        roundTrip(Types.mapOf(NativeType.INT, NativeType.TEXT, false), Map.of(1, "x"), "{\"1\": \"x\"}");
        TupleType tuple = new TupleType(List.of(NativeType.INT, NativeType.TEXT));
        ByteBuffer t = Values.tuple(List.of(Values.int32(1), Values.text("a")));
        assertThat(Json.format(tuple, t)).isEqualTo("[1, \"a\"]");
        UserType udt = new UserType("ks", "addr", List.of("street", "Zip"), List.of(NativeType.TEXT, NativeType.INT),
                true);
        ByteBuffer u = Values.tuple(List.of(Values.text("Main"), Values.int32(7)));
        assertThat(Json.format(udt, u)).isEqualTo("{\"street\": \"Main\", \"\\\"Zip\\\"\": 7}");
        assertThat(udt.compare(Json.toValue(Json.parse("{\"street\": \"Main\", \"\\\"Zip\\\"\": 7}"), udt, "c"), u))
                .isZero();
    }

    @Test
    void shouldAcceptNumbersAsStringsAndRejectWrongShapes() {
        assertThat(Json.toValue(Json.parse("\"12\""), NativeType.INT, "c").getInt(0)).isEqualTo(12);
        assertThatThrownBy(() -> Json.toValue(Json.parse("[1]"), NativeType.INT, "c"))
                .hasMessageContaining("Error decoding JSON value for c");
        assertThatThrownBy(() -> Json.parse("{\"a\": }")).hasMessageContaining("Could not decode JSON string");
    }
}
