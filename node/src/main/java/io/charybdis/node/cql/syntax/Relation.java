package io.charybdis.node.cql.syntax;

import java.util.List;

/** One restriction of a WHERE clause (clauses are AND-ed; parentheses around a single relation are dropped). */
public sealed interface Relation {

    /** {@code col op term} for op in = &lt; &lt;= &gt; &gt;= != CONTAINS, CONTAINS KEY, NOT CONTAINS [KEY], LIKE. */
    record SingleColumn(String column, Operator op, Term value) implements Relation {
    }

    /** {@code col IS NOT NULL}. */
    record IsNotNull(String column) implements Relation {
    }

    /** {@code col [NOT] IN (...)} or {@code col IN ?}; {@code op} is IN or NOT_IN. */
    record In(String column, Operator op, InValues values) implements Relation {
    }

    /** {@code col BETWEEN low AND high}. */
    record Between(String column, Term low, Term high) implements Relation {
    }

    /** {@code col[key] op term}. */
    record MapElement(String column, Term key, Operator op, Term value) implements Relation {
    }

    /** {@code token(a, b) op term}; for BETWEEN {@code value} is a two-element {@link Term.TupleLiteral}. */
    record Token(List<String> columns, Operator op, Term value) implements Relation {
        public Token {
            columns = List.copyOf(columns);
        }
    }

    /** {@code (a, b) op (1, 2)} or {@code (a, b) op ?}; {@code value} is a TupleLiteral or BindMarker. */
    record MultiColumn(List<String> columns, Operator op, Term value) implements Relation {
        public MultiColumn {
            columns = List.copyOf(columns);
        }
    }

    /** {@code (a, b) [NOT] IN ((1, 2), ?, ...)} or {@code (a, b) IN ?}. */
    record MultiColumnIn(List<String> columns, Operator op, InValues values) implements Relation {
        public MultiColumnIn {
            columns = List.copyOf(columns);
        }
    }

    /** {@code (a, b) BETWEEN (1, 2) AND (3, 4)}. */
    record MultiColumnBetween(List<String> columns, Term low, Term high) implements Relation {
        public MultiColumnBetween {
            columns = List.copyOf(columns);
        }
    }

    /** {@code expr(index_name, 'expression')}: a custom index expression. */
    record CustomIndexExpression(QualifiedName index, Term value) implements Relation {
    }
}
