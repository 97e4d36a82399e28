package io.charybdis.node.cql.statements;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.read.ReadCommand;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The slice arithmetic mixed ASC/DESC multi-column slices rely on: intersections of sorted slice lists. */
class RestrictionsSlicesTest {

    private static ReadCommand.Slice slice(Integer from, Integer to) {
        return new ReadCommand.Slice(from == null ? null : new byte[]{from.byteValue()},
                to == null ? null : new byte[]{to.byteValue()});
    }

    private static List<String> show(List<ReadCommand.Slice> slices) {
        return slices.stream().map(s -> (s.start() == null ? "-" : String.valueOf(s.start()[0])) + ".."
                + (s.end() == null ? "+" : String.valueOf(s.end()[0]))).toList();
    }

    @Test
    void intersectKeepsTheOverlapsInOrder() {
        List<ReadCommand.Slice> a = List.of(slice(1, 5), slice(8, 12), slice(20, null));
        List<ReadCommand.Slice> b = List.of(slice(null, 3), slice(4, 9), slice(11, 21));
        assertThat(show(Restrictions.intersect(a, b))).containsExactly("1..3", "4..5", "8..9", "11..12", "20..21");
    }

    @Test
    void intersectWithUnboundedIsIdentityAndDisjointIsEmpty() {
        List<ReadCommand.Slice> a = List.of(slice(1, 5), slice(8, 12));
        assertThat(show(Restrictions.intersect(a, List.of(slice(null, null))))).containsExactly("1..5", "8..12");
        assertThat(Restrictions.intersect(a, List.of(slice(5, 8)))).isEmpty();
        assertThat(Restrictions.intersect(List.of(), a)).isEmpty();
    }

    @Test
    void unionSortsAndMergesOverlaps() {
        assertThat(show(Restrictions.union(List.of(slice(8, 12), slice(1, 5), slice(3, 9)))))
                .containsExactly("1..12");
        assertThat(show(Restrictions.union(List.of(slice(6, 7), slice(null, 2))))).containsExactly("-..2", "6..7");
    }
}
