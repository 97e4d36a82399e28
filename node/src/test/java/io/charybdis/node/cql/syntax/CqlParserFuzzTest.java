package io.charybdis.node.cql.syntax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random mutations of valid statements (character edits, token splices, truncations, repetition) must either parse
 * or fail with a {@link CqlSyntaxException} carrying a sane position, never any other exception or an internal error.
 */
class CqlParserFuzzTest {
    private static final long SEED = 0x5EED_C0FFEEL;
    private static final String[] FRAGMENTS = {
        "(", ")", "[", "]", "{", "}", "'", "\"", "$$", "?", ":", ":x", ",", ";", ".", "..", "-", "+", "*", "/", "%",
        "=", "!=", "<", ">=", "+=", "-=", " AND ", " IF ", " NOT ", " IN ", " EXISTS ", " SELECT ", " FROM ", " WHERE ",
        " token(", " frozen<", " map<", ">", " 0x", " 1e", " -1", " 1.5", " P1D", " 1h", " NaN", " null", " -- ",
        " /* ", " */", "\n", "\u00e9", "\u0000", " CAST(", " AS ", " JSON ", " DISTINCT ", " BATCH ", " APPLY ",
        " 50554d6e-29bb-11e5-b345-feff819cdc9f", " expr(", " ANN OF ", " WITH ", " PRIMARY KEY ", " STATIC ",
    };

    @Test
    @Timeout(120)
    void shouldOnlyEverThrowSyntaxExceptions() {
        List<String> seeds = CqlCorpusTest.corpus().map(l -> l.substring(l.indexOf(" | ") + 3)).toList();
        SplittableRandom random = new SplittableRandom(SEED);
        int parsed = 0;
        int rejected = 0;
        for (int i = 0; i < 60_000; i++) {
            String input = mutate(seeds.get(random.nextInt(seeds.size())), random);
            try {
                CqlParser.parse(input);
                parsed++;
            } catch (CqlSyntaxException e) {
                rejected++;
                if (e.getMessage().startsWith("Failed parsing statement") || e.line() < 1 || e.column() < 0) {
                    fail("internal error for input <" + input + ">", e);
                }
            } catch (RuntimeException | StackOverflowError e) {
                fail("unexpected " + e + " for input <" + input + ">", e);
            }
        }
        assertThat(parsed).isPositive();
        assertThat(rejected).isPositive();
    }

    @Test
    @Timeout(60)
    void shouldSurviveRandomGarbage() {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(30);
            for (int j = 0; j < n; j++) {
                sb.append(random.nextBoolean() ? FRAGMENTS[random.nextInt(FRAGMENTS.length)]
                        : String.valueOf((char) random.nextInt(32, 127)));
            }
            String input = (random.nextBoolean() ? "SELECT " : "") + sb;
            try {
                CqlParser.parseScript(input);
            } catch (CqlSyntaxException e) {
                assertThat(e.getMessage()).doesNotStartWith("Failed parsing statement");
            }
        }
    }

    private static String mutate(String s, SplittableRandom random) {
        StringBuilder sb = new StringBuilder(s);
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = sb.isEmpty() ? 0 : random.nextInt(sb.length() + 1);
            switch (random.nextInt(7)) {
                case 0 -> {
                    if (at < sb.length()) {
                        sb.deleteCharAt(at);
                    }
                }
                case 1 -> sb.insert(at, FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
                case 2 -> sb.insert(at, (char) random.nextInt(32, 127));
                case 3 -> sb.setLength(at);
                case 4 -> {
                    int end = Math.min(sb.length(), at + random.nextInt(12));
                    String piece = sb.substring(at, end);
                    sb.insert(at, piece.repeat(1 + random.nextInt(3)));
                }
                case 5 -> {
                    if (at < sb.length()) {
                        sb.setCharAt(at, Character.toUpperCase(sb.charAt(at)));
                    }
                }
                default -> {
                    int end = Math.min(sb.length(), at + random.nextInt(20));
                    sb.delete(at, end);
                }
            }
        }
        return sb.toString();
    }
}
