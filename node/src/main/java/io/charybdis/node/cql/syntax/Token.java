package io.charybdis.node.cql.syntax;

/**
 * One token. {@code text} is the token's value: string and quoted-name contents unescaped, everything else as
 * written. {@code start}/{@code end} are char offsets in the source; {@code line} is 1-based, {@code column} 0-based.
 */
record Token(TokenType type, String text, int start, int end, int line, int column) {

    /** The text as ANTLR shows it in messages: {@code '<EOF>'} for the end. */
    String displayText() {
        return type == TokenType.EOF ? "<EOF>" : type == TokenType.EMPTY_QUOTED_NAME ? "\"\"" : text;
    }
}
