package io.charybdis.node.cql.keys;

import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TableParams;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.TupleType;
import io.charybdis.protocol.types.UserType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tuple and UDT clustering values compare as Cassandra compares them: missing trailing fields (a UDT value written
 * before ALTER TYPE ... ADD) equal null ones, and a null field sorts before any value, before the end of a shorter
 * value only when something non-null follows it.
 */
class ClusteringCodecTupleTest {
    private static final UserType UDT = new UserType("ks", "u", List.of("a", "b", "c"),
            List.of(NativeType.TEXT, NativeType.TEXT, NativeType.TEXT), true);

    private static TableMetadata table(DataType ck, boolean reversed) {
        return new TableMetadata("ks", "t", UUID.randomUUID(), List.of(
                new ColumnMetadata("p", NativeType.INT, ColumnMetadata.Kind.PARTITION_KEY, 0, false, -1),
                new ColumnMetadata("c", ck, ColumnMetadata.Kind.CLUSTERING, 0, reversed, -1)),
                TableParams.defaults(), 0, Map.of(), Map.of(), false);
    }

    private static ByteBuffer value(String... fields) {
        return Values.tuple(Arrays.stream(fields).map(f -> f == null ? null : Values.text(f)).toList());
    }

    private static byte[] key(TableMetadata t, ByteBuffer v) {
        return ClusteringCodec.encode(t, new ByteBuffer[] {v});
    }

    @Test
    void trailingNullFieldsEqualMissingOnes() {
        for (DataType type : List.of(UDT, new TupleType(List.of(NativeType.TEXT, NativeType.TEXT, NativeType.TEXT)))) {
            for (boolean reversed : List.of(false, true)) {
                TableMetadata t = table(type, reversed);
                byte[] one = key(t, value("x"));
                assertThat(key(t, value("x", null))).isEqualTo(one);
                assertThat(key(t, value("x", null, null))).isEqualTo(one);
                assertThat(key(t, value("x", null, "z"))).isNotEqualTo(one);
                // decoded without the trailing nulls, which readers take as null fields
                ByteBuffer[] out = new ByteBuffer[1];
                ClusteringCodec.decode(t, key(t, value("x", null, null)), out);
                assertThat(out[0]).isEqualTo(value("x"));
                ByteBuffer[] fast = new ByteBuffer[1];
                byte[] k = key(t, value("x", null, null));
                new ClusteringDecoder(t).decode(k, 0, k.length, fast, 0);
                assertThat(fast[0]).isEqualTo(value("x"));
            }
        }
    }

    @Test
    void ordersAsCassandra() {
        TableMetadata t = table(UDT, false);
        List<ByteBuffer> ascending = List.of(value((String) null, "b"), value("fo"), value("foo"),
                value("foo", null, "x"), value("foo", "b"), value("foo", "b", "c"));
        for (int i = 1; i < ascending.size(); i++) {
            assertThat(Arrays.compareUnsigned(key(t, ascending.get(i - 1)), key(t, ascending.get(i))))
                    .as("%d before %d", i - 1, i).isNegative();
        }
    }
}
