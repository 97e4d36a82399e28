package io.charybdis.node.cql.syntax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CqlLexerTest {

    private static List<TokenType> types(String src) {
        return CqlLexer.tokenize(src).stream().map(Token::type).toList();
    }

    private static Token single(String src) {
        List<Token> tokens = CqlLexer.tokenize(src);
        assertThat(tokens).as(src).hasSize(2);
        return tokens.get(0);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "42 | INTEGER | 42",
            "0 | INTEGER | 0",
            "1.5 | FLOAT | 1.5",
            "1. | FLOAT | 1.",
            "1e10 | FLOAT | 1e10",
            "1.5E-3 | FLOAT | 1.5E-3",
            "2e+7 | FLOAT | 2e+7",
            "0xCAFEbabe | HEXNUMBER | 0xCAFEbabe",
            "0x | HEXNUMBER | 0x",
            "true | BOOLEAN | true",
            "FALSE | BOOLEAN | FALSE",
            "NaN | K_NAN | NaN",
            "Infinity | K_INFINITY | Infinity",
            "12h | DURATION | 12h",
            "1h30m | DURATION | 1h30m",
            "3mo | DURATION | 3mo",
            "10ms | DURATION | 10ms",
            "10us | DURATION | 10us",
            "10\u00b5s | DURATION | 10\u00b5s",
            "10ns | DURATION | 10ns",
            "1y2mo3w4d5h6m7s8ms9us10ns | DURATION | 1y2mo3w4d5h6m7s8ms9us10ns",
            "2D | DURATION | 2D",
            "P1D | DURATION | P1D",
            "P1Y2M3DT4H5M6S | DURATION | P1Y2M3DT4H5M6S",
            "PT1H | DURATION | PT1H",
            "P2W | DURATION | P2W",
            "P0001-02-03T04:05:06 | DURATION | P0001-02-03T04:05:06",
            "50554d6e-29bb-11e5-b345-feff819cdc9f | UUID | 50554d6e-29bb-11e5-b345-feff819cdc9f",
            "E7CD5752-BC0D-4157-A80F-7523ADD8DBCD | UUID | E7CD5752-BC0D-4157-A80F-7523ADD8DBCD",
            "foo_Bar9 | IDENT | foo_Bar9",
            "P1DX | IDENT | P1DX",
            "p1d | IDENT | p1d",
            "SELECT | K_SELECT | SELECT",
            "columnfamily | K_COLUMNFAMILY | columnfamily",
            "ColumnFamilies | K_TABLES | ColumnFamilies",
            "? | QMARK | ?",
            ".. | RANGE | ..",
            "!= | NEQ | !=",
            "+= | PLUS_EQ | +=",
            "-= | MINUS_EQ | -=",
            "<= | LTE | <=",
    })
    void shouldLexSingleTokens(String src, TokenType type, String text) {
        Token t = single(src);
        assertThat(t.type()).isEqualTo(type);
        assertThat(t.text()).isEqualTo(text);
    }

    @Test
    void shouldUnescapeStringsAndQuotedNames() {
        assertThat(single("'it''s'").text()).isEqualTo("it's");
        assertThat(single("''").text()).isEmpty();
        assertThat(single("$$a 'b' \"c\" $ d$$").text()).isEqualTo("a 'b' \"c\" $ d");
        assertThat(single("$$$$").text()).isEmpty();
        assertThat(single("'multi\nline'").text()).isEqualTo("multi\nline");
        Token quoted = single("\"My \"\"Col\"\"\"");
        assertThat(quoted.type()).isEqualTo(TokenType.QUOTED_NAME);
        assertThat(quoted.text()).isEqualTo("My \"Col\"");
        assertThat(single("\"\"").type()).isEqualTo(TokenType.EMPTY_QUOTED_NAME);
        assertThat(single("\"\"\"\"").text()).isEqualTo("\"");
    }

    @Test
    void shouldSplitRangesAndNegativeNumbers() {
        assertThat(types("1..3")).containsExactly(TokenType.INTEGER, TokenType.RANGE, TokenType.INTEGER,
                TokenType.EOF);
        // as Cassandra's lexer: a '-' directly before a digit belongs to the number (1-1 is two integers)
        assertThat(types("-1")).containsExactly(TokenType.INTEGER, TokenType.EOF);
        assertThat(types("1-1")).containsExactly(TokenType.INTEGER, TokenType.INTEGER, TokenType.EOF);
        assertThat(types("1h-1m")).containsExactly(TokenType.DURATION, TokenType.DURATION, TokenType.EOF);
        assertThat(types("1 - 1")).containsExactly(TokenType.INTEGER, TokenType.MINUS, TokenType.INTEGER,
                TokenType.EOF);
        // three dots: the float "0." then a range, as Cassandra's lexer reads m[0...3.]
        assertThat(types("0...3.")).containsExactly(TokenType.FLOAT, TokenType.RANGE, TokenType.FLOAT,
                TokenType.EOF);
        assertThat(types("a.b")).containsExactly(TokenType.IDENT, TokenType.DOT, TokenType.IDENT, TokenType.EOF);
        assertThat(types("1day")).containsExactly(TokenType.DURATION, TokenType.IDENT, TokenType.EOF);
        assertThat(types("123abc")).containsExactly(TokenType.INTEGER, TokenType.IDENT, TokenType.EOF);
        assertThat(types("map<int,frozen<list<int>>>")).containsExactly(TokenType.K_MAP, TokenType.LT,
                TokenType.K_INT, TokenType.COMMA, TokenType.K_FROZEN, TokenType.LT, TokenType.K_LIST, TokenType.LT,
                TokenType.K_INT, TokenType.GT, TokenType.GT, TokenType.GT, TokenType.EOF);
    }

    @Test
    void shouldSkipAllCommentForms() {
        assertThat(types("a -- comment\n b // other\r\n c /* multi \n line */ d -- at end"))
                .containsExactly(TokenType.IDENT, TokenType.IDENT, TokenType.IDENT, TokenType.IDENT, TokenType.EOF);
        assertThat(types("a/**/b")).containsExactly(TokenType.IDENT, TokenType.IDENT, TokenType.EOF);
    }

    @Test
    void shouldTrackLinesAndColumns() {
        List<Token> tokens = CqlLexer.tokenize("SELECT *\n  FROM /* x\n y */ t\n\t'a\nb' z");
        assertThat(tokens.get(0)).extracting(Token::line, Token::column).containsExactly(1, 0);
        assertThat(tokens.get(1)).extracting(Token::line, Token::column).containsExactly(1, 7);
        assertThat(tokens.get(2)).extracting(Token::line, Token::column).containsExactly(2, 2);
        assertThat(tokens.get(3)).extracting(Token::line, Token::column).containsExactly(3, 6);
        assertThat(tokens.get(4)).extracting(Token::line, Token::column).containsExactly(4, 1);
        assertThat(tokens.get(5)).extracting(Token::line, Token::column).containsExactly(5, 3);
    }

    @Test
    void shouldRejectBadCharactersWithPosition() {
        assertThatThrownBy(() -> CqlParser.parse("SELECT \u00e9 FROM t"))
                .isInstanceOfSatisfying(CqlSyntaxException.class, e -> {
                    assertThat(e.line()).isEqualTo(1);
                    assertThat(e.column()).isEqualTo(7);
                    assertThat(e.getMessage()).isEqualTo("line 1:7 no viable alternative at character '\u00e9'");
                });
        assertThatThrownBy(() -> CqlParser.parse("SELECT a\n !b")).isInstanceOfSatisfying(CqlSyntaxException.class,
                e -> assertThat(e.getMessage()).startsWith("line 2:1 "));
        assertThatThrownBy(() -> CqlParser.parse("SELECT 'open")).isInstanceOf(CqlSyntaxException.class)
                .hasMessage("line 1:12 mismatched character '<EOF>' expecting '''");
        assertThatThrownBy(() -> CqlParser.parse("SELECT \"open")).isInstanceOf(CqlSyntaxException.class);
        assertThatThrownBy(() -> CqlParser.parse("SELECT $$open")).isInstanceOf(CqlSyntaxException.class);
        assertThatThrownBy(() -> CqlParser.parse("SELECT /* open")).isInstanceOf(CqlSyntaxException.class);
        assertThatThrownBy(() -> CqlParser.parse("SELECT $a")).isInstanceOf(CqlSyntaxException.class);
        // the lexer's error stands where its token would be: tokens before it are read as usual
        assertThat(types("a @")).containsExactly(TokenType.IDENT, TokenType.LEX_ERROR, TokenType.EOF);
    }

    @Test
    void shouldCommitToAUuidAfterEightHexDigitsADashAndAHexDigit() {
        assertThatThrownBy(() -> CqlParser.parse("INSERT INTO t (k, u) VALUES (1, 550e8400-e29b)"))
                .hasMessage("line 1:45 mismatched character ')' expecting '-'");
        assertThatThrownBy(() -> CqlParser.parse("INSERT INTO t (k, u) VALUES (1, 550e8400-e29b-41d4-a716-4466)"))
                .hasMessage("line 1:60 mismatched character ')' expecting set null");
        assertThat(types("12345678-x")).containsExactly(TokenType.INTEGER, TokenType.MINUS, TokenType.IDENT,
                TokenType.EOF);
    }

    @Test
    void shouldClassifyKeywordsLikeCassandra() {
        assertThat(TokenType.K_SELECT.isReserved()).isTrue();
        assertThat(TokenType.K_TOKEN.isReserved()).isTrue();
        assertThat(TokenType.K_KEY.isUnreservedKeyword()).isTrue();
        assertThat(TokenType.K_KEY.isFunctionKeyword()).isFalse();
        assertThat(TokenType.K_TEXT.isFunctionKeyword()).isTrue();
        assertThat(TokenType.K_FILTERING.isBasicUnreserved()).isTrue();
        assertThat(Identifiers.isReservedKeyword("From")).isTrue();
        assertThat(Identifiers.isReservedKeyword("ttl")).isFalse();
        assertThat(Identifiers.quoteIfNeeded("ttl")).isEqualTo("ttl");
        assertThat(Identifiers.quoteIfNeeded("from")).isEqualTo("\"from\"");
        assertThat(Identifiers.quoteIfNeeded("Mixed")).isEqualTo("\"Mixed\"");
        assertThat(Identifiers.quoteIfNeeded("a\"b")).isEqualTo("\"a\"\"b\"");
    }
}
