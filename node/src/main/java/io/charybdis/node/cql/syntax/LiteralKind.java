package io.charybdis.node.cql.syntax;

/** The lexical kind of a constant. */
public enum LiteralKind {
    STRING, INTEGER, FLOAT, BOOLEAN, UUID, HEX, DURATION, NULL
}
