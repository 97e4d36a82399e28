package io.charybdis.node.cql.syntax;

/** Comparison operators of WHERE relations and IF conditions. */
public enum Operator {
    EQ("="), LT("<"), LTE("<="), GT(">"), GTE(">="), NEQ("!="),
    IN("IN"), NOT_IN("NOT IN"), CONTAINS("CONTAINS"), CONTAINS_KEY("CONTAINS KEY"),
    NOT_CONTAINS("NOT CONTAINS"), NOT_CONTAINS_KEY("NOT CONTAINS KEY"), LIKE("LIKE"), IS_NOT("IS NOT"),
    BETWEEN("BETWEEN");

    private final String cql;

    Operator(String cql) {
        this.cql = cql;
    }

    public String cql() {
        return cql;
    }
}
