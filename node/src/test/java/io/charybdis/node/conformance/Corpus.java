package io.charybdis.node.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The conformance corpus: {@code <topic>.cql} files of statements, each answered by a {@code <topic>.expected}
 * file recorded from Apache Cassandra 5.0.6 by {@link ConformanceRecorder}.
 *
 * <p>File format: a statement ends at a line whose last non-blank character is {@code ;} (a {@code BEGIN ...
 * BATCH} ends only at {@code APPLY BATCH;}). Lines starting with {@code --} are comments; a comment of the form
 * {@code -- @directive [argument]} applies to the next statement:
 * <ul>
 *   <li>{@code @unordered}: the rows are compared as a multiset (the order is not defined by CQL);</li>
 *   <li>{@code @msg <fragment>}: an error message is compared by this fragment only (Cassandra's full text is
 *       unstable or names its own internals);</li>
 *   <li>{@code @anymsg}: only the error code is compared;</li>
 *   <li>{@code @nowarn}: warnings are not compared;</li>
 *   <li>{@code @skip <reason>}: recorded, but not run against Charybdis (a known difference, to be fixed);</li>
 *   <li>{@code @bind <value> | <value> ...}: the statement is prepared and executed with these bound values, CQL
 *       literals parsed by the driver's codec for each bind variable's type ({@code null}; {@code unset} leaves the
 *       variable unset; {@code raw:0x<hex>} binds those bytes as they are, to send malformed values); an empty
 *       list binds none;</li>
 *   <li>{@code @prepare}: the statement is prepared, not executed; the outcome is its metadata (bind variables
 *       with their names and types, the partition key indexes drivers route by, the result columns);</li>
 *   <li>{@code @page <n>}: the statement runs with a fetch size of {@code n}; the driver fetches every page, and
 *       the number of rows of each page is compared too;</li>
 *   <li>{@code @nopage}: the statement is sent without a page size (paging off, as a driver with a fetch size of
 *       0 sends it: Cassandra then answers ORDER BY with an IN restriction, which it refuses to page);</li>
 *   <li>{@code @retry}: while the statement fails with a read failure (an index still being built: Cassandra's
 *       IndexNotAvailableException), it is run again, for up to 20 seconds; the last outcome counts;</li>
 *   <li>{@code @cl <level> [<serial level>]}: the statement runs at this consistency level (and serial
 *       consistency level) instead of the driver's defaults (LOCAL_ONE, SERIAL).</li>
 *   <li>{@code @login <user> <password>}: this and every later statement of the topic run in a session logged in
 *       as this role (one session per role, opened at its first use), until the next {@code @login} or
 *       {@code @logout} (back to the topic's default session).</li>
 * </ul>
 *
 * <p>Topics in {@code conformance-auth/} are recorded from, and run against, a node with
 * {@code PasswordAuthenticator} and {@code CassandraAuthorizer}; their default session is the superuser
 * cassandra/cassandra.
 */
final class Corpus {
    static final Path DIR = Path.of("src/test/resources/conformance");

    record Statement(String topic, int index, int line, String cql, boolean unordered, String msgFragment,
            boolean anyMessage, boolean ignoreWarnings, String skipReason, boolean prepare, String consistency,
            String serialConsistency, int pageSize, boolean retry, Login login, List<String> bind) {
        String id() {
            return topic + "#" + index;
        }
    }

    /** The role a statement runs as ({@code @login}); null: the topic's default session. */
    record Login(String user, String password) {
    }

    private Corpus() {
    }

    static List<Path> topics(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".cql")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String topicOf(Path cqlFile) {
        String n = cqlFile.getFileName().toString();
        return n.substring(0, n.length() - ".cql".length());
    }

    static Path expectedFile(Path cqlFile) {
        return cqlFile.resolveSibling(topicOf(cqlFile) + ".expected");
    }

    static List<Statement> parse(Path cqlFile) {
        String topic = topicOf(cqlFile);
        List<String> lines;
        try {
            lines = Files.readAllLines(cqlFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Statement> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int startLine = 0;
        boolean unordered = false;
        boolean anyMsg = false;
        boolean noWarn = false;
        boolean prepare = false;
        String fragment = null;
        String skip = null;
        String cl = null;
        String serial = null;
        Login login = null;
        int page = 0;
        boolean retry = false;
        List<String> bind = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (cur.isEmpty() && (line.isEmpty() || line.startsWith("--"))) {
                if (line.startsWith("-- @")) {
                    String d = line.substring(4).strip();
                    if (d.equals("unordered")) {
                        unordered = true;
                    } else if (d.equals("anymsg")) {
                        anyMsg = true;
                    } else if (d.equals("prepare")) {
                        prepare = true;
                    } else if (d.equals("nowarn")) {
                        noWarn = true;
                    } else if (d.startsWith("skip ")) {
                        skip = d.substring(5).strip();
                    } else if (d.startsWith("cl ")) {
                        String[] levels = d.substring(3).strip().split("\\s+");
                        cl = levels[0];
                        serial = levels.length > 1 ? levels[1] : null;
                    } else if (d.startsWith("login ")) {
                        String[] up = d.substring(6).strip().split("\\s+");
                        if (up.length != 2) {
                            throw new IllegalArgumentException(cqlFile + ":" + (i + 1) + ": @login user password");
                        }
                        login = new Login(up[0], up[1]);
                    } else if (d.equals("logout")) {
                        login = null;
                    } else if (d.equals("bind") || d.startsWith("bind ")) {
                        bind = new ArrayList<>();
                        for (String v : d.substring(4).split("\\|")) {
                            if (!v.isBlank()) {
                                bind.add(v.strip());
                            }
                        }
                    } else if (d.equals("retry")) {
                        retry = true;
                    } else if (d.startsWith("page ")) {
                        page = Integer.parseInt(d.substring(5).strip());
                    } else if (d.equals("nopage")) {
                        page = -1;
                    } else if (d.startsWith("msg ")) {
                        fragment = d.substring(4).strip();
                    } else {
                        throw new IllegalArgumentException(cqlFile + ":" + (i + 1) + ": unknown directive " + d);
                    }
                }
                continue;
            }
            if (cur.isEmpty()) {
                startLine = i + 1;
            } else {
                cur.append('\n');
            }
            cur.append(line);
            boolean batch = cur.toString().toUpperCase(Locale.ROOT).startsWith("BEGIN ");
            boolean ends = line.endsWith(";")
                    && (!batch || line.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ").endsWith("APPLY BATCH;"));
            if (ends) {
                String cql = cur.substring(0, cur.length() - 1).strip();
                out.add(new Statement(topic, out.size() + 1, startLine, cql, unordered, fragment, anyMsg, noWarn,
                        skip, prepare, cl, serial, page, retry, login, bind));
                cur.setLength(0);
                unordered = anyMsg = noWarn = prepare = false;
                fragment = null;
                skip = null;
                cl = serial = null;
                page = 0;
                retry = false;
                bind = null;
            }
        }
        if (!cur.isEmpty()) {
            throw new IllegalArgumentException(cqlFile + ":" + startLine + ": statement not terminated by ';'");
        }
        return out;
    }
}
