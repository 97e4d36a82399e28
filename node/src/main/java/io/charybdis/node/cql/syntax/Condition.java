package io.charybdis.node.cql.syntax;

/** One lightweight-transaction condition of {@code IF c1 AND c2 ...}. */
public sealed interface Condition {

    String column();

    /** {@code c op t} for op in = &lt; &lt;= &gt; &gt;= != CONTAINS CONTAINS KEY. */
    record Simple(String column, Operator op, Term value) implements Condition {
    }

    /** {@code c IN (...)} / {@code c IN ?}. */
    record In(String column, InValues values) implements Condition {
    }

    /** {@code c[element] op t}. */
    record Element(String column, Term element, Operator op, Term value) implements Condition {
    }

    /** {@code c[element] IN (...)}. */
    record ElementIn(String column, Term element, InValues values) implements Condition {
    }

    /** {@code c.field op t}. */
    record Field(String column, String field, Operator op, Term value) implements Condition {
    }

    /** {@code c.field IN (...)}. */
    record FieldIn(String column, String field, InValues values) implements Condition {
    }
}
