package io.charybdis.node.cql.syntax;

/** The binary arithmetic operators of terms and selectors. */
public enum ArithmeticOperator {
    ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/"), MODULO("%");

    private final String symbol;

    ArithmeticOperator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }
}
