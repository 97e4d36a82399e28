package io.charybdis.cqlscript;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CqlScriptTest {

    @Test
    void shouldSplitOnSemicolonsOutsideStringsIdentifiersBodiesAndComments() {
        String text = """
                -- a comment; not a statement
                CREATE TABLE "we;ird" (k int PRIMARY KEY, v text); // trailing; comment
                INSERT INTO "we;ird" (k, v) VALUES (1, 'it''s; fine');
                /* block; comment */ INSERT INTO t (k, v) VALUES (2, $$a;b$$)
                """;
        assertThat(CqlScript.of(text).statements()).containsExactly(
                "CREATE TABLE \"we;ird\" (k int PRIMARY KEY, v text)",
                "INSERT INTO \"we;ird\" (k, v) VALUES (1, 'it''s; fine')",
                "INSERT INTO t (k, v) VALUES (2, $$a;b$$)");
    }

    @Test
    void shouldIgnoreEmptyStatements() {
        assertThat(CqlScript.of(" ;; \n -- only a comment\n;").statements()).isEmpty();
    }

    @Test
    void shouldReadScriptsFromTheClassPath() {
        assertThat(CqlScript.fromClasspath("orders.cql").statements()).hasSize(3);
        assertThatThrownBy(() -> CqlScript.fromClasspath("missing.cql"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing.cql");
    }
}
