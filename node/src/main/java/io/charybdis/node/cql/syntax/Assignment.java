package io.charybdis.node.cql.syntax;

/** One {@code SET} operation of an UPDATE. */
public sealed interface Assignment {

    String column();

    /** {@code c = t}. */
    record SetValue(String column, Term value) implements Assignment {
    }

    /** {@code c = c + t} or {@code c += t}: counter increment, collection append/union, map put-all. */
    record Add(String column, Term value) implements Assignment {
    }

    /** {@code c = c - t} or {@code c -= t}: counter decrement, collection removal. */
    record Subtract(String column, Term value) implements Assignment {
    }

    /** {@code c = t + c}: list prepend. */
    record Prepend(String column, Term value) implements Assignment {
    }

    /** {@code c[key] = t}: list index or map key. */
    record SetElement(String column, Term key, Term value) implements Assignment {
    }

    /** {@code c.field = t}. */
    record SetField(String column, String field, Term value) implements Assignment {
    }
}
