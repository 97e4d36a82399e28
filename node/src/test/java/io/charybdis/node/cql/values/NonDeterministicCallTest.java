package io.charybdis.node.cql.values;

import io.charybdis.node.cql.syntax.QualifiedName;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.protocol.types.NativeType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * now() and uuid() take one value per execution of a statement, whichever step asks for it (a lightweight
 * transaction routes, checks and writes by the same key), and a new one at the next execution.
 */
class NonDeterministicCallTest {
    private static BoundValue bound(String name, NativeType type) {
        TermBinder binder = new TermBinder("ks", "t", 0, new Functions());
        return binder.bind(new Term.FunctionCall(new QualifiedName(null, name), List.of()), "pk", type);
    }

    @Test
    void oneValuePerExecution() {
        for (String fn : List.of("now", "currenttimeuuid", "current_timeuuid", "uuid")) {
            BoundValue v = bound(fn, fn.equals("uuid") ? NativeType.UUID : NativeType.TIMEUUID);
            BindContext first = new BindContext(List.of(), 0, 0);
            ByteBuffer a = v.bind(first);
            assertThat(v.bind(first)).as(fn).isEqualTo(a);
            BindContext second = new BindContext(List.of(), 0, 0);
            assertThat(v.bind(second)).as(fn).isNotEqualTo(a);
        }
    }
}
