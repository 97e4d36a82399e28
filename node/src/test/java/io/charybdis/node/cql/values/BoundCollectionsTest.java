package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.protocol.types.ListType;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.SetType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bound set and map values reach storage in their canonical form, as Cassandra reads them into sorted collections:
 * a frozen set or map sent in any order (drivers send a hash set or map in its own order) is stored sorted, each
 * element or key once; lists keep their order; an unset argument of a function fails the statement.
 */
class BoundCollectionsTest {
    private static ByteBuffer bindOne(io.charybdis.protocol.types.DataType type, ByteBuffer value) {
        TermBinder binder = new TermBinder("ks", "t", 1, new Functions());
        BoundValue bound = binder.bind(new Term.BindMarker(0, null), "c", type);
        List<ByteBuffer> values = new ArrayList<>();
        values.add(value);
        return bound.bind(new BindContext(values, 0, 0));
    }

    private static List<String> texts(ByteBuffer collection, boolean map) {
        List<String> out = new ArrayList<>();
        for (ByteBuffer e : Values.elements(collection, map)) {
            out.add(map && out.size() % 2 == 1 ? String.valueOf(e.getInt(e.position())) : Values.toText(e));
        }
        return out;
    }

    @Test
    void aFrozenSetIsStoredSortedAndDeduplicated() {
        ByteBuffer sent = Values.collection(List.of(Values.text("pear"), Values.text("apple"), Values.text("fig"),
                Values.text("apple")));
        ByteBuffer stored = bindOne(new SetType(NativeType.TEXT, true), sent);
        assertThat(texts(stored, false)).containsExactly("apple", "fig", "pear");
    }

    @Test
    void aFrozenMapIsStoredByKeyWithTheLastValueOfARepeatedKey() {
        ByteBuffer sent = Values.collection(List.of(Values.text("b"), Values.int32(2), Values.text("a"),
                Values.int32(1), Values.text("b"), Values.int32(3)));
        sent.putInt(0, 3);
        ByteBuffer stored = bindOne(new MapType(NativeType.TEXT, NativeType.INT, true), sent);
        assertThat(stored.getInt(stored.position())).isEqualTo(2);
        assertThat(texts(stored, true)).containsExactly("a", "1", "b", "3");
    }

    @Test
    void aSortedSetIsKeptAsSentAndAListKeepsItsOrder() {
        ByteBuffer sorted = Values.collection(List.of(Values.int32(1), Values.int32(5)));
        assertThat(bindOne(new SetType(NativeType.INT, true), sorted)).isSameAs(sorted);
        ByteBuffer list = Values.collection(List.of(Values.int32(5), Values.int32(1), Values.int32(5)));
        assertThat(bindOne(new ListType(NativeType.INT, true), list)).isSameAs(list);
    }

    @Test
    void setsNestedInAFrozenMapAreSortedToo() {
        ByteBuffer key = Values.collection(List.of(Values.int32(9), Values.int32(2), Values.int32(5)));
        ByteBuffer sent = Values.collection(List.of(key, Values.int32(1)));
        sent.putInt(0, 1);
        ByteBuffer stored = bindOne(new MapType(new SetType(NativeType.INT, true), NativeType.INT, true), sent);
        List<ByteBuffer> parts = Values.elements(stored, true);
        List<Integer> keyElements = new ArrayList<>();
        for (ByteBuffer e : Values.elements(parts.get(0), false)) {
            keyElements.add(e.getInt(e.position()));
        }
        assertThat(keyElements).containsExactly(2, 5, 9);
        assertThat(parts.get(1).getInt(parts.get(1).position())).isEqualTo(1);
    }

    @Test
    void anUnsetFunctionArgumentFailsTheStatement() {
        TermBinder binder = new TermBinder("ks", "t", 1, new Functions());
        Term call = new Term.BinaryOp(io.charybdis.node.cql.syntax.ArithmeticOperator.ADD,
                new Term.TypeCast(new io.charybdis.node.cql.syntax.CqlTypeSyntax.Native(
                        io.charybdis.node.cql.syntax.CqlTypeSyntax.NativeType.INT), new Term.BindMarker(0, null)),
                new Term.Literal(io.charybdis.node.cql.syntax.LiteralKind.INTEGER, "1"));
        BoundValue bound = binder.bind(call, "a", NativeType.INT);
        List<ByteBuffer> values = new ArrayList<>();
        values.add(Values.UNSET);
        assertThatThrownBy(() -> bound.bind(new BindContext(values, 0, 0)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Invalid unset value for argument in call to function _add");
        values.set(0, Values.int32(7));
        assertThat(bound.bind(new BindContext(values, 0, 0)).getInt(0)).isEqualTo(8);
    }
}
