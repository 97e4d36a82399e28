package io.charybdis.node.cql.syntax;

import java.util.List;

/** The right-hand side of {@code IN}: a parenthesised list ({@code IN (1, 2)}, {@code IN ()}) or one marker ({@code IN ?}). */
public sealed interface InValues {

    record Terms(List<Term> terms) implements InValues {
        public Terms {
            terms = List.copyOf(terms);
        }
    }

    record Marker(Term.BindMarker marker) implements InValues {
    }
}
