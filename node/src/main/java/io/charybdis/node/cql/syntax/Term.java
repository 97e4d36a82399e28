package io.charybdis.node.cql.syntax;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A value expression as written in a statement; nothing is typed or evaluated here.
 *
 * <p>Notes: a parenthesised single term {@code (x)} is a one-element {@link TupleLiteral}, as in Cassandra;
 * {@code {}} is {@link EmptyBraces} because it may be an empty set or an empty map; negative numeric constants
 * ({@code -1}, {@code -1.5}, {@code -1h}, {@code -Infinity}) are folded into a {@link Literal}; {@code -NaN} reads
 * {@code NaN}.
 */
public sealed interface Term {

    String toCql();

    /** A constant; {@code text} is the raw text (string contents unescaped, without quotes). */
    record Literal(LiteralKind kind, String text) implements Term {
        public static final Literal NULL = new Literal(LiteralKind.NULL, "null");

        public Literal {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(text, "text");
        }

        public static Literal string(String text) {
            return new Literal(LiteralKind.STRING, text);
        }

        public static Literal integer(String text) {
            return new Literal(LiteralKind.INTEGER, text);
        }

        @Override
        public String toCql() {
            return kind == LiteralKind.STRING ? "'" + text.replace("'", "''") + "'" : text;
        }
    }

    /** {@code ?} ({@code name} null) or {@code :name}; {@code index} is the 0-based order across the statement. */
    record BindMarker(int index, String name) implements Term {
        public boolean isNamed() {
            return name != null;
        }

        @Override
        public String toCql() {
            return name == null ? "?" : ":" + Identifiers.quoteIfNeeded(name);
        }
    }

    record ListLiteral(List<Term> elements) implements Term {
        public ListLiteral {
            elements = List.copyOf(elements);
        }

        @Override
        public String toCql() {
            return "[" + join(elements) + "]";
        }
    }

    record SetLiteral(List<Term> elements) implements Term {
        public SetLiteral {
            elements = List.copyOf(elements);
        }

        @Override
        public String toCql() {
            return "{" + join(elements) + "}";
        }
    }

    /** A non-empty map literal; entries in written order (duplicates kept, the executor decides). */
    record MapLiteral(List<Map.Entry<Term, Term>> entries) implements Term {
        public MapLiteral {
            entries = List.copyOf(entries);
        }

        @Override
        public String toCql() {
            return entries.stream().map(e -> e.getKey().toCql() + ": " + e.getValue().toCql())
                    .collect(Collectors.joining(", ", "{", "}"));
        }
    }

    /** {@code {}}: an empty set or an empty map, decided by the receiver's type. */
    record EmptyBraces() implements Term {
        @Override
        public String toCql() {
            return "{}";
        }
    }

    /** {@code (a, b, ...)}; also a parenthesised single term. */
    record TupleLiteral(List<Term> elements) implements Term {
        public TupleLiteral {
            elements = List.copyOf(elements);
        }

        @Override
        public String toCql() {
            return "(" + join(elements) + ")";
        }
    }

    /** {@code {field: term, ...}}; fields in written order, already case-normalised. */
    record UdtLiteral(Map<String, Term> fields) implements Term {
        public UdtLiteral {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        @Override
        public String toCql() {
            return fields.entrySet().stream()
                    .map(e -> Identifiers.quoteIfNeeded(e.getKey()) + ": " + e.getValue().toCql())
                    .collect(Collectors.joining(", ", "{", "}"));
        }
    }

    /** {@code fn(args)}; {@code name.name()} is lower-cased unless quoted. */
    record FunctionCall(QualifiedName function, List<Term> args) implements Term {
        public FunctionCall {
            Objects.requireNonNull(function, "function");
            args = List.copyOf(args);
        }

        @Override
        public String toCql() {
            return function.toCql() + "(" + join(args) + ")";
        }
    }

    /** {@code (type) term}: a type hint. */
    record TypeCast(CqlTypeSyntax type, Term term) implements Term {
        @Override
        public String toCql() {
            return "(" + type.toCql() + ") " + term.toCql();
        }
    }

    /** {@code CAST(term AS type)}: a value conversion. */
    record Cast(Term term, CqlTypeSyntax.Native type) implements Term {
        @Override
        public String toCql() {
            return "CAST(" + term.toCql() + " AS " + type.toCql() + ")";
        }
    }

    /** {@code -term} for anything but a numeric constant. */
    record Negation(Term term) implements Term {
        @Override
        public String toCql() {
            return "-" + term.toCql();
        }
    }

    record BinaryOp(ArithmeticOperator op, Term left, Term right) implements Term {
        @Override
        public String toCql() {
            return left.toCql() + " " + op.symbol() + " " + right.toCql();
        }
    }

    private static String join(List<Term> terms) {
        List<String> parts = new ArrayList<>(terms.size());
        for (Term t : terms) {
            parts.add(t.toCql());
        }
        return String.join(", ", parts);
    }
}
