package io.charybdis.node.cql.syntax;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One expression of a SELECT clause (also GROUP BY entries and materialised view selections).
 * A parenthesised single selector {@code (a)} is the selector itself, as in Cassandra.
 */
public sealed interface Selector {

    /** {@code SELECT x AS alias}; {@code alias} is null when absent. */
    record Item(Selector selector, String alias) {
        public Item {
            Objects.requireNonNull(selector, "selector");
        }
    }

    enum WriteTimeKind { WRITETIME, MAXWRITETIME, TTL }

    /** A column by name (case-normalised). */
    record Column(String name) implements Selector {
    }

    /** A constant, {@code null} or bind marker. */
    record Value(Term term) implements Selector {
    }

    /** {@code writetime(c)}, {@code maxwritetime(c)}, {@code ttl(c)}; {@code column} may carry field/element selection. */
    record WriteTime(WriteTimeKind kind, Selector column) implements Selector {
    }

    /** {@code count(*)} (also written {@code COUNT(*)}). */
    record CountRows() implements Selector {
    }

    record FunctionCall(QualifiedName function, List<Selector> args) implements Selector {
        public FunctionCall {
            args = List.copyOf(args);
        }
    }

    /** {@code CAST(selector AS type)}. */
    record Cast(Selector selector, CqlTypeSyntax.Native type) implements Selector {
    }

    /**
     * {@code (type) selector}; {@code parenthesized}: the selector is written in parentheses ({@code (int)(c)}),
     * which Cassandra keeps in the column's name.
     */
    record TypeHint(CqlTypeSyntax type, Selector selector, boolean parenthesized) implements Selector {
        public TypeHint(CqlTypeSyntax type, Selector selector) {
            this(type, selector, false);
        }
    }

    /** {@code udtSelector.field}. */
    record FieldAccess(Selector receiver, String field) implements Selector {
    }

    /** {@code collection[element]}. */
    record ElementAccess(Selector receiver, Term element) implements Selector {
    }

    /** {@code collection[from..to]}; either bound may be null ({@code s[1..]}, {@code s[..3]}). */
    record SliceAccess(Selector receiver, Term from, Term to) implements Selector {
    }

    /** {@code -s}; {@code parenthesized}: written {@code -(s)}, which Cassandra keeps in the column's name. */
    record Negation(Selector selector, boolean parenthesized) implements Selector {
        public Negation(Selector selector) {
            this(selector, false);
        }
    }

    /**
     * {@code left op right}; {@code parentheses}: how many pairs it is written in ({@code ((a + b))}: 2), which
     * Cassandra keeps in the column's name.
     */
    record BinaryOp(ArithmeticOperator op, Selector left, Selector right, int parentheses) implements Selector {
        public BinaryOp(ArithmeticOperator op, Selector left, Selector right) {
            this(op, left, right, 0);
        }
    }

    record ListSelector(List<Selector> elements) implements Selector {
        public ListSelector {
            elements = List.copyOf(elements);
        }
    }

    record SetSelector(List<Selector> elements) implements Selector {
        public SetSelector {
            elements = List.copyOf(elements);
        }
    }

    /** {@code {k: v, ...}}: a map, or a UDT literal when keys are field names (the executor decides by type). */
    record MapOrUdtSelector(List<Map.Entry<Selector, Selector>> entries) implements Selector {
        public MapOrUdtSelector {
            entries = List.copyOf(entries);
        }
    }

    /**
     * {@code (s)}: an element of a list, set, map or tuple literal written in parentheses ({@code [(ck), 1]}), which
     * Cassandra keeps in the column's name; it stands for {@code s}, or for a one-element tuple where one is
     * expected, and has no type by itself.
     */
    record Parenthesized(Selector selector) implements Selector {
    }

    /** {@code (a, b, ...)} with at least two elements. */
    record TupleSelector(List<Selector> elements) implements Selector {
        public TupleSelector {
            elements = List.copyOf(elements);
        }
    }
}
