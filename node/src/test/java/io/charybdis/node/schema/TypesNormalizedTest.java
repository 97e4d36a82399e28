package io.charybdis.node.schema;

import io.charybdis.node.cql.values.Values;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Collections bound by a client in any order are kept as Cassandra keeps them: sorted, without duplicates. */
class TypesNormalizedTest {
    private static ByteBuffer ints(int... values) {
        List<ByteBuffer> out = new ArrayList<>();
        for (int v : values) {
            out.add(Values.int32(v));
        }
        return Values.collection(out);
    }

    private static ByteBuffer map(DataType type, ByteBuffer... keysAndValues) {
        return Types.joinComponents(type, List.of(keysAndValues));
    }

    @Test
    void setIsSortedAndDeduplicated() {
        DataType set = Types.setOf(NativeType.INT, true);
        assertThat(Types.normalized(set, ints(3, 1, 2, 1))).isEqualTo(ints(1, 2, 3));
    }

    @Test
    void orderedValueIsReturnedAsItIs() {
        DataType set = Types.setOf(NativeType.INT, true);
        ByteBuffer v = ints(1, 2, 3);
        assertThat(Types.normalized(set, v)).isSameAs(v);
        DataType list = Types.listOf(NativeType.INT, true);
        ByteBuffer l = ints(3, 1, 3);
        assertThat(Types.normalized(list, l)).isSameAs(l);
    }

    @Test
    void mapKeysAreSortedAndTheLastValueOfAKeyWins() {
        DataType m = Types.mapOf(NativeType.INT, NativeType.INT, true);
        ByteBuffer sent = map(m, Values.int32(5), Values.int32(50), Values.int32(1), Values.int32(10),
                Values.int32(5), Values.int32(55));
        ByteBuffer kept = map(m, Values.int32(1), Values.int32(10), Values.int32(5), Values.int32(55));
        assertThat(Types.normalized(m, sent)).isEqualTo(kept);
    }

    @Test
    void nestedSetsAreSortedToo() {
        DataType inner = Types.setOf(NativeType.INT, true);
        DataType m = Types.mapOf(inner, NativeType.INT, true);
        ByteBuffer sent = map(m, ints(2, 1, 3), Values.int32(1));
        ByteBuffer kept = map(m, ints(1, 2, 3), Values.int32(1));
        assertThat(Types.normalized(m, sent)).isEqualTo(kept);
        DataType list = Types.listOf(inner, true);
        assertThat(Types.normalized(list, Values.collection(List.of(ints(9, 8)))))
                .isEqualTo(Values.collection(List.of(ints(8, 9))));
    }

    @Test
    void nonCollectionsAreLeftAlone() {
        ByteBuffer v = Values.int32(7);
        assertThat(Types.normalized(NativeType.INT, v)).isSameAs(v);
        assertThat(Types.normalized(Types.setOf(NativeType.INT, true), null)).isNull();
    }
}
