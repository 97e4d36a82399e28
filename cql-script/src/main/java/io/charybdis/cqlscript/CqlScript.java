package io.charybdis.cqlscript;

import com.datastax.oss.driver.api.core.CqlSession;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A CQL script: statements separated by {@code ;}, as {@code cqlsh -f} reads them. Semicolons inside
 * {@code 'strings'} (with {@code ''} escapes), {@code "identifiers"}, {@code $$bodies$$} and comments
 * ({@code --}, {@code //}, {@code /* *}{@code /}) do not split; comments are dropped.
 *
 * <p>The one splitter of the project: charybdis-embedded ({@code EmbeddedCharybdis.execute}, the JUnit extension's
 * init scripts) and charybdis-testcontainers ({@code CharybdisContainer.withInitScript}) both run scripts through it.
 */
public final class CqlScript {

    private final String source;
    private final List<String> statements;

    private CqlScript(String source, String text) {
        this.source = source;
        this.statements = split(text);
    }

    public static CqlScript of(String text) {
        return new CqlScript("inline script", Objects.requireNonNull(text, "text"));
    }

    public static CqlScript fromFile(Path file) {
        try {
            return new CqlScript(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CQL script " + file, e);
        }
    }

    /** A script on the class path, e.g. {@code "schema.cql"} from {@code src/test/resources}. */
    public static CqlScript fromClasspath(String resource) {
        String name = resource.startsWith("/") ? resource.substring(1) : resource;
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (InputStream in = (loader != null ? loader : CqlScript.class.getClassLoader()).getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("CQL script " + resource + " is not on the class path");
            }
            return new CqlScript("classpath:" + name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CQL script " + resource, e);
        }
    }

    public List<String> statements() {
        return statements;
    }

    /** Executes each statement in order; a failing one is reported with its number and text. */
    public void executeIn(CqlSession session) {
        for (int i = 0; i < statements.size(); i++) {
            String statement = statements.get(i);
            try {
                session.execute(statement);
            } catch (RuntimeException e) {
                throw new IllegalStateException("statement " + (i + 1) + " of " + source + " failed: " + statement
                        + ": " + e.getMessage(), e);
            }
        }
    }

    /** The statements of {@code text}, in order, without comments or empty statements. */
    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            char next = i + 1 < n ? text.charAt(i + 1) : 0;
            if ((c == '-' && next == '-') || (c == '/' && next == '/')) {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && next == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                current.append(' ');
            } else if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < n) {
                    if (text.charAt(end) == c) {
                        if (end + 1 < n && text.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                end = Math.min(end + 1, n);
                current.append(text, i, end);
                i = end;
            } else if (c == '$' && next == '$') {
                int end = text.indexOf("$$", i + 2);
                end = end < 0 ? n : end + 2;
                current.append(text, i, end);
                i = end;
            } else if (c == ';') {
                add(out, current);
                i++;
            } else {
                current.append(c);
                i++;
            }
        }
        add(out, current);
        return List.copyOf(out);
    }

    private static void add(List<String> out, StringBuilder statement) {
        String s = statement.toString().strip();
        if (!s.isEmpty()) {
            out.add(s);
        }
        statement.setLength(0);
    }
}
