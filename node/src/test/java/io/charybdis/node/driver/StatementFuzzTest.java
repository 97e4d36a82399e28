package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.ProtocolError;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random and mutated statements and bound values, as a careless or hostile client sends them: whatever they are,
 * the node answers each with a result or a client error, never a Server_error (0x0000) or a protocol error, never
 * closes the connection, and keeps answering.
 *
 * <p>Seeded ({@code -Dcharybdis.fuzz.seed=N}, else a fixed default; the seed is in every failure message) and bounded
 * in time and count ({@code -Dcharybdis.fuzz.seconds}, default 40; {@code -Dcharybdis.fuzz.statements}, default
 * 6000). Statements come from three sources in turn: statements generated from a grammar of the tables below (valid
 * or nearly so, with extreme literals), the same statements mutated token by token or character by character, and
 * prepared statements executed with random bytes for their bound values.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class StatementFuzzTest {
    static final long SEED = Long.getLong("charybdis.fuzz.seed", 0x5EED_C0DEL);
    static final long SECONDS = Long.getLong("charybdis.fuzz.seconds", 40);
    static final int STATEMENTS = Integer.getInteger("charybdis.fuzz.statements", 6000);

    static TestNode node;
    static CqlSession session;

    /** The tables statements are generated for: name to column name to CQL type; the key columns come first. */
    static final Map<String, Map<String, String>> TABLES = new LinkedHashMap<>();
    static final Map<String, Integer> PARTITION_KEY = new LinkedHashMap<>();
    static final Map<String, Integer> CLUSTERING = new LinkedHashMap<>();

    static {
        table("t1", 1, 1, "k int", "c text", "v text", "n bigint", "d double");
        table("t2", 2, 2, "a int", "b text", "c1 int", "c2 timestamp", "s int static", "v blob", "l list<int>",
                "m map<text, int>", "st set<text>");
        table("t3", 1, 1, "k decimal", "c varint", "a ascii", "f float", "u uuid", "tu timeuuid", "i inet",
                "dt date", "tm time", "bo boolean", "du duration", "tup frozen<tuple<int, text>>");
        table("t4", 1, 0, "k text", "n counter", "m counter");
        table("t5", 1, 2, "k blob", "c1 smallint", "c2 tinyint", "fz frozen<list<text>>", "v int");
    }

    static void table(String name, int pk, int ck, String... columns) {
        Map<String, String> cols = new LinkedHashMap<>();
        for (String c : columns) {
            int sp = c.indexOf(' ');
            cols.put(c.substring(0, sp), c.substring(sp + 1));
        }
        TABLES.put(name, cols);
        PARTITION_KEY.put(name, pk);
        CLUSTERING.put(name, ck);
    }

    @BeforeAll
    static void start() throws Exception {
        startNode(b -> b, b -> b);
    }

    /** The node with {@code config} applied, and the session with {@code client} applied (TLS, credentials). */
    static void startNode(java.util.function.UnaryOperator<io.charybdis.node.config.NodeConfig.Builder> config,
                          java.util.function.UnaryOperator<com.datastax.oss.driver.api.core.CqlSessionBuilder> client)
            throws Exception {
        node = new TestNode(config);
        session = node.session(b -> b.withBoolean(DefaultDriverOption.METADATA_SCHEMA_ENABLED, false)
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30)), client);
        session.execute("CREATE KEYSPACE fz WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("USE fz");
        for (var e : TABLES.entrySet()) {
            session.execute(createTable(e.getKey()));
        }
        session.execute("CREATE TABLE fz.t6 (k int, c int, v int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)");
    }

    static String createTable(String name) {
        Map<String, String> cols = TABLES.get(name);
        List<String> names = new ArrayList<>(cols.keySet());
        StringBuilder sb = new StringBuilder("CREATE TABLE fz.").append(name).append(" (");
        cols.forEach((c, t) -> sb.append(c).append(' ').append(t.replace(" static", "")).append(t.endsWith(" static")
                ? " static" : "").append(", "));
        int pk = PARTITION_KEY.get(name);
        int ck = CLUSTERING.get(name);
        sb.append("PRIMARY KEY ((").append(String.join(", ", names.subList(0, pk))).append(')');
        for (String c : names.subList(pk, pk + ck)) {
            sb.append(", ").append(c);
        }
        return sb.append("))").toString();
    }

    @AfterAll
    static void stop() throws Exception {
        if (session != null) {
            session.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void randomAndMutatedStatementsNeverGetAServerErrorNorCloseTheConnection() {
        Random random = new Random(SEED);
        Gen gen = new Gen(random);
        List<String> failures = new ArrayList<>();
        Map<String, PreparedStatement> prepared = new LinkedHashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(fuzzSeconds());
        int sent = 0;
        int errors = 0;
        while (sent < STATEMENTS && System.nanoTime() < deadline && failures.size() < 20) {
            int kind = sent % 3;
            sent++;
            String cql = gen.statement();
            try {
                if (kind == 0) {
                    session.execute(SimpleStatement.newInstance(cql));
                } else if (kind == 1) {
                    cql = gen.mutate(cql);
                    session.execute(SimpleStatement.newInstance(cql));
                } else {
                    PreparedStatement ps = prepared.get(cql);
                    if (ps == null) {
                        ps = session.prepare(cql);
                        if (prepared.size() < 500) {
                            prepared.put(cql, ps);
                        }
                    }
                    cql = cql + "  -- bound: ";
                    BoundStatementBuilder b = ps.boundStatementBuilder();
                    StringBuilder values = new StringBuilder();
                    for (int i = 0; i < ps.getVariableDefinitions().size(); i++) {
                        ByteBuffer v = gen.randomBytes(ps.getVariableDefinitions().get(i).getType().toString());
                        b = b.setBytesUnsafe(i, v);
                        values.append(v == null ? "null" : hex(v)).append(' ');
                    }
                    cql = cql + values;
                    BoundStatement bs = b.build();
                    session.execute(bs);
                }
            } catch (ServerError | ProtocolError | ClosedConnectionException | AllNodesFailedException
                     | DriverTimeoutException e) {
                failures.add("seed " + SEED + ", statement " + sent + ": " + cql + "\n    -> "
                        + e.getClass().getSimpleName() + ": " + e.getMessage());
            } catch (DriverException e) {
                errors++; // a client error: what the statement deserves
            }
        }
        // the node still answers, on the same session
        assertThat(session.execute("SELECT release_version FROM system.local").one()).isNotNull();
        assertThat(failures).as("%d statements sent (%d client errors), seed %d", sent, errors, SEED).isEmpty();
        assertThat(sent).isGreaterThan(500);
    }

    /** How long the fuzzing runs. */
    long fuzzSeconds() {
        return SECONDS;
    }

    static String hex(ByteBuffer b) {
        StringBuilder sb = new StringBuilder("0x");
        ByteBuffer d = b.duplicate();
        while (d.hasRemaining() && sb.length() < 80) {
            sb.append(String.format("%02x", d.get()));
        }
        return sb.toString();
    }

    /** The generator: statements over {@link #TABLES}, their mutations, random bound values. */
    static final class Gen {
        final Random r;

        Gen(Random r) {
            this.r = r;
        }

        <T> T pick(List<T> l) {
            return l.get(r.nextInt(l.size()));
        }

        String pick(String... s) {
            return s[r.nextInt(s.length)];
        }

        String table() {
            return pick(new ArrayList<>(TABLES.keySet()));
        }

        String statement() {
            String t = table();
            return switch (r.nextInt(12)) {
                case 0, 1, 2 -> select(t);
                case 3, 4 -> insert(t);
                case 5 -> update(t);
                case 6 -> delete(t);
                case 7 -> insertJson(t);
                case 8 -> batch();
                case 9 -> selectFunctions(t);
                case 10 -> ddl(t);
                default -> pick("SELECT * FROM system.local", "SELECT * FROM system_schema.tables WHERE "
                        + "keyspace_name = 'fz'", "SELECT JSON * FROM fz." + t + " LIMIT 3",
                        "SELECT DISTINCT " + key(t, 0) + " FROM fz." + t, "TRUNCATE fz.t6",
                        "SELECT * FROM fz." + t + " WHERE token(" + key(t, 0) + ") > " + r.nextLong()
                                + (PARTITION_KEY.get(t) > 1 ? "" : " AND token(" + key(t, 0) + ") <= ?"));
            };
        }

        String key(String t, int i) {
            return new ArrayList<>(TABLES.get(t).keySet()).get(i);
        }

        String column(String t) {
            return pick(new ArrayList<>(TABLES.get(t).keySet()));
        }

        String type(String t, String c) {
            return TABLES.get(t).get(c).replace(" static", "");
        }

        String where(String t, boolean fullKey) {
            List<String> cols = new ArrayList<>(TABLES.get(t).keySet());
            int pk = PARTITION_KEY.get(t);
            int ck = CLUSTERING.get(t);
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < pk; i++) {
                String c = cols.get(i);
                parts.add(r.nextInt(5) == 0 ? c + " IN (" + value(type(t, c)) + ", " + value(type(t, c)) + ")"
                        : c + " = " + value(type(t, c)));
            }
            int restricted = fullKey ? ck : r.nextInt(ck + 1);
            for (int i = 0; i < restricted; i++) {
                String c = cols.get(pk + i);
                String op = fullKey ? "=" : pick("=", "=", ">", "<", ">=", "<=", "IN", "!=", "CONTAINS");
                parts.add(op.equals("IN") ? c + " IN (" + value(type(t, c)) + ")" : c + " " + op + " "
                        + value(type(t, c)));
            }
            if (ck >= 2 && r.nextInt(6) == 0) {
                parts.add("(" + cols.get(pk) + ", " + cols.get(pk + 1) + ") " + pick(">", "<=", ">=") + " ("
                        + value(type(t, cols.get(pk))) + ", " + value(type(t, cols.get(pk + 1))) + ")");
            }
            if (r.nextInt(8) == 0) {
                String c = column(t);
                parts.add(c + " " + pick("=", ">", "CONTAINS", "CONTAINS KEY", "IN", "LIKE") + " "
                        + value(type(t, c)));
            }
            java.util.Collections.shuffle(parts, r);
            return String.join(" AND ", parts);
        }

        String select(String t) {
            StringBuilder sb = new StringBuilder("SELECT ");
            if (r.nextInt(6) == 0) {
                sb.append("JSON ");
            }
            if (r.nextInt(10) == 0) {
                sb.append("DISTINCT ");
            }
            if (r.nextInt(3) == 0) {
                sb.append('*');
            } else {
                List<String> sel = new ArrayList<>();
                for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
                    String c = column(t);
                    sel.add(switch (r.nextInt(8)) {
                        case 0 -> "count(*)";
                        case 1 -> pick("max", "min", "sum", "avg", "count") + "(" + c + ")";
                        case 2 -> pick("writetime", "ttl", "maxwritetime") + "(" + c + ")";
                        case 3 -> "CAST(" + c + " AS " + pick("text", "int", "bigint", "double", "decimal", "ascii",
                                "varint", "float") + ")";
                        case 4 -> c + " AS " + pick("x", "\"Y\"", "count");
                        case 5 -> c + "[" + value("int") + "]";
                        default -> c;
                    });
                }
                sb.append(String.join(", ", sel));
            }
            sb.append(" FROM fz.").append(t);
            if (r.nextInt(5) != 0) {
                sb.append(" WHERE ").append(where(t, false));
            }
            if (r.nextInt(5) == 0) {
                sb.append(" GROUP BY ").append(key(t, 0));
                if (CLUSTERING.get(t) > 0 && r.nextBoolean()) {
                    sb.append(", ").append(key(t, PARTITION_KEY.get(t)));
                }
            }
            if (CLUSTERING.get(t) > 0 && r.nextInt(6) == 0) {
                sb.append(" ORDER BY ").append(key(t, PARTITION_KEY.get(t))).append(pick(" ASC", " DESC"));
            }
            if (r.nextInt(8) == 0) {
                sb.append(" PER PARTITION LIMIT ").append(pick("1", "0", "-1", "?", "2147483648"));
            }
            if (r.nextInt(4) == 0) {
                sb.append(" LIMIT ").append(pick("1", "0", "-5", "?", "100", "99999999999"));
            }
            if (r.nextInt(3) == 0) {
                sb.append(" ALLOW FILTERING");
            }
            if (r.nextInt(10) == 0) {
                sb.append(" USING TIMEOUT ").append(pick("1s", "0ms", "?", "1d", "-1ms", "5us"));
            }
            return sb.toString();
        }

        String selectFunctions(String t) {
            String c = column(t);
            String f = pick("toJson(" + c + ")", "fromJson('" + jsonValue() + "')", "token(" + key(t, 0) + ")",
                    "blobAsInt(" + c + ")", "intAsBlob(" + value("int") + ")", c + " + " + value("int"),
                    c + " * " + value("decimal"), c + " / 0", "-" + c, "now()", "toDate(" + c + ")",
                    "toTimestamp(" + c + ")", "floor(" + c + ", 1h)", "uuid()", value(type(t, c)),
                    "(" + pick("int", "text", "decimal", "blob") + ") " + value(type(t, c)),
                    "collection_count(" + c + ")", "map_keys(" + c + ")", "abs(" + c + ")", "exp(" + c + ")",
                    "round(" + c + ")", "mask_default(" + c + ")", "system.nosuch(" + c + ")", c + "['a'..'c']");
            return "SELECT " + f + " FROM fz." + t + (r.nextBoolean() ? " WHERE " + where(t, false) : "")
                    + (r.nextBoolean() ? " ALLOW FILTERING" : "");
        }

        String insert(String t) {
            List<String> cols = new ArrayList<>(TABLES.get(t).keySet());
            int keys = PARTITION_KEY.get(t) + CLUSTERING.get(t);
            List<String> chosen = new ArrayList<>(cols.subList(0, r.nextInt(8) == 0 ? r.nextInt(keys + 1) : keys));
            for (String c : cols.subList(keys, cols.size())) {
                if (r.nextBoolean()) {
                    chosen.add(c);
                }
            }
            List<String> values = new ArrayList<>();
            for (String c : chosen) {
                values.add(value(type(t, c)));
            }
            String using = switch (r.nextInt(8)) {
                case 0 -> " USING TTL " + pick("0", "1", "-1", "630720001", "?");
                case 1 -> " USING TIMESTAMP " + pick("0", "-9223372036854775808", "9223372036854775807", "?");
                case 2 -> " USING TTL 10 AND TIMESTAMP 5 AND TIMEOUT 1s";
                default -> "";
            };
            return "INSERT INTO fz." + t + " (" + String.join(", ", chosen) + ") VALUES (" + String.join(", ", values)
                    + ")" + (r.nextInt(10) == 0 ? " IF NOT EXISTS" : "") + using;
        }

        String update(String t) {
            List<String> cols = new ArrayList<>(TABLES.get(t).keySet());
            int keys = PARTITION_KEY.get(t) + CLUSTERING.get(t);
            List<String> sets = new ArrayList<>();
            List<String> regular = cols.subList(keys, cols.size());
            for (int i = 0, n = 1 + r.nextInt(2); i < n; i++) {
                String c = r.nextInt(10) == 0 ? pick(cols) : pick(regular);
                String ty = type(t, c);
                sets.add(switch (r.nextInt(7)) {
                    case 0 -> c + " = " + c + " + " + value(ty.startsWith("map") || ty.startsWith("set")
                            || ty.startsWith("list") || ty.equals("counter") ? ty : "int");
                    case 1 -> c + " = " + c + " - " + value(ty);
                    case 2 -> c + "[" + value(ty.startsWith("map") ? "text" : "int") + "] = " + value("int");
                    case 3 -> c + " = " + value(ty) + " + " + c;
                    default -> c + " = " + value(ty);
                });
            }
            String cond = switch (r.nextInt(10)) {
                case 0 -> " IF EXISTS";
                case 1 -> " IF " + pick(regular) + " = " + value(type(t, pick(regular)));
                case 2 -> " IF " + pick(regular) + " IN ?";
                default -> "";
            };
            return "UPDATE fz." + t + (r.nextInt(6) == 0 ? " USING TTL " + pick("5", "?") + " AND TIMEOUT 2s" : "")
                    + " SET " + String.join(", ", sets) + " WHERE " + where(t, r.nextInt(5) != 0) + cond;
        }

        String delete(String t) {
            String what = r.nextInt(3) == 0 ? column(t) + (r.nextInt(4) == 0 ? "[" + value("int") + "]" : "") + " "
                    : "";
            return "DELETE " + what + "FROM fz." + t + (r.nextInt(6) == 0 ? " USING TIMESTAMP " + pick("1", "?") : "")
                    + " WHERE " + where(t, r.nextInt(3) == 0) + (r.nextInt(10) == 0 ? " IF EXISTS" : "");
        }

        String insertJson(String t) {
            StringBuilder sb = new StringBuilder("{");
            List<String> cols = new ArrayList<>(TABLES.get(t).keySet());
            for (int i = 0; i < cols.size(); i++) {
                if (i >= PARTITION_KEY.get(t) + CLUSTERING.get(t) && r.nextBoolean()) {
                    continue;
                }
                if (sb.length() > 1) {
                    sb.append(", ");
                }
                sb.append('"').append(r.nextInt(20) == 0 ? "nosuch" : cols.get(i)).append("\": ").append(jsonValue());
            }
            String json = sb.append('}').toString().replace("'", "''");
            return "INSERT INTO fz." + t + " JSON '" + json + "'" + (r.nextBoolean() ? " DEFAULT UNSET" : "");
        }

        String batch() {
            StringBuilder sb = new StringBuilder("BEGIN ").append(pick("", "UNLOGGED ", "COUNTER ")).append("BATCH ");
            if (r.nextInt(4) == 0) {
                sb.append("USING TIMESTAMP ").append(pick("1", "?")).append(' ');
            }
            for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
                String t = table();
                sb.append(switch (r.nextInt(3)) {
                    case 0 -> insert(t);
                    case 1 -> update(t);
                    default -> delete(t);
                }).append("; ");
            }
            return sb.append("APPLY BATCH").toString();
        }

        String ddl(String t) {
            return switch (r.nextInt(6)) {
                case 0 -> "ALTER TABLE fz." + t + " WITH " + pick("gc_grace_seconds = -1", "comment = 'x'",
                        "compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': -1}",
                        "compression = {'chunk_length_in_kb': 3}", "default_time_to_live = 99999999999",
                        "caching = {'keys': 'NONE', 'rows_per_partition': 'x'}", "bloom_filter_fp_chance = 0");
                case 1 -> "CREATE TABLE IF NOT EXISTS fz.tmp" + r.nextInt(3) + " (k " + pick("int", "counter",
                        "list<int>", "frozen<set<text>>", "duration", "text") + " PRIMARY KEY, v "
                        + pick("int", "counter", "map<int, counter>", "vector<float, 3>", "frozen<tuple<int>>") + ")";
                case 2 -> "DROP TABLE IF EXISTS fz.tmp" + r.nextInt(3);
                case 3 -> "CREATE INDEX IF NOT EXISTS ON fz." + t + " (" + pick("keys", "values", "entries", "full", "")
                        + "(" + column(t) + "))";
                case 4 -> "CREATE TYPE IF NOT EXISTS fz.ty" + r.nextInt(3) + " (a int, b " + pick("text", "counter",
                        "frozen<ty0>", "ty1") + ")";
                default -> "ALTER TABLE fz.tmp" + r.nextInt(3) + " " + pick("ADD x int", "DROP v", "RENAME k TO kk",
                        "ALTER v TYPE text", "ADD (a int, b text)");
            };
        }

        /** A literal for a column of CQL type {@code type}: usually of that type, often extreme, sometimes not. */
        String value(String type) {
            if (r.nextInt(15) == 0) {
                return pick("?", ":named", "null", "''", "0x", "-0", "NaN", "-Infinity", "{}", "[]", "()",
                        "(1, 'a')", "unset", "1e2147483647", "1e-2147483647", "0.0e-2147483647", "-1e309",
                        "99999999999999999999999999999999", "'\u00e9\u0000\ud83d\ude00'", "0x" + "ab".repeat(3),
                        "1970-01-01", "'2024-02-30'", "'25:00:00'", "5mo3d", "-1d", "P1Y2M", "now()",
                        "00000000-0000-0000-0000-000000000000", "{1: 'a', 'b': 2}", "[1, null, 3]", "{null}");
            }
            return switch (type) {
                case "int", "bigint", "varint", "smallint", "tinyint", "counter" -> pick(
                        String.valueOf(r.nextInt(10)), String.valueOf(r.nextInt()), String.valueOf(r.nextLong()),
                        "2147483648", "-2147483649", "32768", "128", "-129", "9223372036854775808", "0");
                case "text", "ascii" -> "'" + pick("a", "b", "", "caf\u00e9", "x".repeat(1 + r.nextInt(300)),
                        "it''s", "\u0001\u007f", "\ud83d\ude00") + "'";
                case "double", "float", "decimal" -> pick("1.5", "-0.0", "1e308", "3.4e39", "1e-400",
                        String.valueOf(r.nextDouble()), "123456789.123456789", "NaN", "Infinity", "7", "1E+10",
                        "12345678901234567890.5e-30");
                case "blob" -> pick("0x00", "0x", "0xdeadbeef", "0x" + "0f".repeat(r.nextInt(100)), "0xabc");
                case "timestamp" -> pick("0", "'2024-01-01'", "'2024-01-01 12:00:00+0000'", "-9223372036854775808",
                        "'1900-13-01'", "'9999-12-31T23:59:59.999Z'", String.valueOf(r.nextLong()));
                case "date" -> pick("'2024-01-01'", "'-5877641-06-23'", "'5881580-07-11'", "0", "2147483648",
                        "'0000-00-00'");
                case "time" -> pick("'12:00:00'", "'23:59:59.999999999'", "'24:00:00'", "86399999999999",
                        "86400000000000", "-1");
                case "uuid", "timeuuid" -> pick("uuid()", "now()", "00000000-0000-1000-8000-000000000000",
                        "550e8400-e29b-41d4-a716-446655440000", "minTimeuuid('2024-01-01')", "maxTimeuuid(0)");
                case "inet" -> pick("'127.0.0.1'", "'::1'", "'256.0.0.1'", "'x'", "'2001:db8::ff00:42:8329'");
                case "boolean" -> pick("true", "false", "TRUE", "'true'", "1");
                case "duration" -> pick("1h", "-5m30s", "P1Y", "1mo", "PT0S", "9223372036854775807ns", "1y2mo3w");
                case "list<int>" -> pick("[1, 2, 3]", "[]", "[" + r.nextInt() + "]", "[null]", "['a']");
                case "set<text>" -> pick("{'a', 'b'}", "{}", "{'" + "z".repeat(r.nextInt(50)) + "'}", "{1}");
                case "map<text, int>" -> pick("{'a': 1}", "{}", "{'a': 1, 'a': 2}", "{1: 'a'}", "{'k': null}");
                case "frozen<list<text>>" -> pick("['a']", "[]", "['a', 'b']", "[1]");
                case "frozen<tuple<int, text>>" -> pick("(1, 'a')", "(1)", "(1, 'a', 2)", "(null, null)", "()");
                default -> "1";
            };
        }

        String jsonValue() {
            return pick("1", "-1", "3000000000", "1.5", "1e999", "\"1e2147483647\"", "\"caf\u00e9\"", "\"0xzz\"",
                    "\"0x00\"", "null", "true", "[1, 2]", "{\"a\": 1}", "\"2024-01-01\"", "\"\"", "[]", "{}",
                    "\"\\u0000\"", "\"\\ud800\"", "99999999999999999999999", "-0", "\"NaN\"", "\"1h\"",
                    "\"550e8400-e29b-41d4-a716-446655440000\"", "[null]", "{\"a\": null}", "[1, \"a\"]");
        }

        /** {@code cql} with one to three random edits: tokens dropped, doubled, swapped or replaced, text cut. */
        String mutate(String cql) {
            String s = cql;
            for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
                String[] tokens = s.split(" ");
                if (tokens.length < 2) {
                    break;
                }
                int at = r.nextInt(tokens.length);
                switch (r.nextInt(7)) {
                    case 0 -> tokens[at] = "";
                    case 1 -> tokens[at] = tokens[at] + " " + tokens[at];
                    case 2 -> {
                        int other = r.nextInt(tokens.length);
                        String x = tokens[at];
                        tokens[at] = tokens[other];
                        tokens[other] = x;
                    }
                    case 3 -> tokens[at] = pick("(", ")", ",", "?", "*", "'", "\"", ";", "..", "[", "]", "{", "}",
                            "-", "+", "SELECT", "WHERE", "AND", "IN", "TOKEN", "CAST", "JSON", "USING", "IF", "NULL",
                            "1e2147483647", "0x", "::", ":x", "$$a$$", "--", "/*", "\u0000");
                    case 4 -> {
                        String joined = String.join(" ", tokens);
                        return joined.substring(0, r.nextInt(joined.length() + 1));
                    }
                    case 5 -> tokens[at] = value(pick("int", "text", "blob", "decimal", "map<text, int>",
                            "frozen<tuple<int, text>>", "timestamp", "duration"));
                    default -> {
                        char[] chars = tokens[at].toCharArray();
                        if (chars.length > 0) {
                            chars[r.nextInt(chars.length)] = (char) (r.nextBoolean() ? r.nextInt(128)
                                    : r.nextInt(0x3000));
                        }
                        tokens[at] = new String(chars);
                    }
                }
                s = String.join(" ", tokens);
            }
            return s;
        }

        /** Random bytes for a bound value of {@code type}: right-sized, wrong-sized, empty, huge or null. */
        ByteBuffer randomBytes(String type) {
            return switch (r.nextInt(10)) {
                case 0 -> null;
                case 1 -> ByteBuffer.allocate(0);
                case 2 -> {
                    byte[] b = new byte[r.nextInt(4) + 1];
                    r.nextBytes(b);
                    yield ByteBuffer.wrap(b);
                }
                case 3 -> ByteBuffer.allocate(4).putInt(0, r.nextInt());
                case 4 -> ByteBuffer.allocate(8).putLong(0, r.nextLong());
                case 5 -> {
                    // a collection or tuple header claiming more than there is
                    ByteBuffer b = ByteBuffer.allocate(12);
                    b.putInt(0, r.nextInt(5) - 1).putInt(4, r.nextInt()).putInt(8, r.nextInt());
                    yield b;
                }
                case 6 -> {
                    byte[] b = new byte[r.nextInt(2000)];
                    r.nextBytes(b);
                    yield ByteBuffer.wrap(b);
                }
                case 7 -> ByteBuffer.wrap(new byte[]{(byte) 0x80, 0, 0, 0, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
                default -> {
                    byte[] b = new byte[16];
                    r.nextBytes(b);
                    yield ByteBuffer.wrap(b);
                }
            };
        }
    }
}
