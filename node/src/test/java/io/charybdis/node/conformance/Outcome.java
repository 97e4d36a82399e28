package io.charybdis.node.conformance;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.servererrors.AlreadyExistsException;
import com.datastax.oss.driver.api.core.servererrors.FunctionFailureException;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ProtocolError;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.TruncateException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What one statement answered, as a JSON object: {@code {"cql", "columns": [[name, type]...], "rows": [[value...]
 * ...], "warnings": [...]}} for a success, {@code {"cql", "error": {"code", "message"}}} for an error. Values are
 * CQL literals rendered from the driver's decoded objects (timestamps in UTC), {@code null} for null.
 */
final class Outcome {
    static final ObjectMapper JSON = new ObjectMapper();

    private Outcome() {
    }

    static ObjectNode run(CqlSession session, String cql) {
        return run(session, cql, null, null);
    }

    /** Runs at the given consistency levels (names of DefaultConsistencyLevel; null: the driver's default). */
    static ObjectNode run(CqlSession session, String cql, String consistency, String serialConsistency) {
        return run(session, cql, consistency, serialConsistency, 0);
    }

    /** As above, with a fetch size ({@code pageSize} > 0): the rows of each page are counted in "pages". */
    static ObjectNode run(CqlSession session, String cql, String consistency, String serialConsistency,
                          int pageSize) {
        return run(session, cql, consistency, serialConsistency, pageSize, null);
    }

    /** As above; with {@code bind} (CQL literals), the statement is prepared and executed with those values. */
    static ObjectNode run(CqlSession session, String cql, String consistency, String serialConsistency,
                          int pageSize, List<String> bind) {
        ObjectNode out = JSON.createObjectNode();
        out.put("cql", cql);
        try {
            com.datastax.oss.driver.api.core.cql.Statement<?> stmt = bind == null
                    ? SimpleStatement.newInstance(cql) : bound(session, cql, bind);
            stmt = stmt.setTimeout(Duration.ofSeconds(15));
            if (consistency != null) {
                stmt = stmt.setConsistencyLevel(
                        com.datastax.oss.driver.api.core.DefaultConsistencyLevel.valueOf(consistency));
            }
            if (serialConsistency != null) {
                stmt = stmt.setSerialConsistencyLevel(
                        com.datastax.oss.driver.api.core.DefaultConsistencyLevel.valueOf(serialConsistency));
            }
            if (pageSize > 0) {
                stmt = stmt.setPageSize(pageSize);
            } else if (pageSize < 0) {
                // no page size in the request (the driver leaves it out when it is not positive)
                stmt = stmt.setExecutionProfile(session.getContext().getConfig().getDefaultProfile()
                        .withInt(com.datastax.oss.driver.api.core.config.DefaultDriverOption.REQUEST_PAGE_SIZE, 0));
            }
            ResultSet rs = session.execute(stmt);
            List<Row> rows;
            if (pageSize > 0) {
                rows = new ArrayList<>();
                ArrayNode pages = JSON.createArrayNode();
                int carried = 0; // the row that fetched the page, already taken
                while (true) {
                    int n = rs.getAvailableWithoutFetching();
                    for (int i = 0; i < n; i++) {
                        rows.add(rs.one());
                    }
                    pages.add(carried + n);
                    if (rs.isFullyFetched()) {
                        break;
                    }
                    Row first = rs.one(); // fetches the next page
                    if (first == null) {
                        pages.add(0);
                        break;
                    }
                    rows.add(first);
                    carried = 1;
                }
                out.set("pages", pages);
            } else {
                rows = rs.all();
            }
            if (rs.getColumnDefinitions().size() > 0) {
                ArrayNode cols = out.putArray("columns");
                for (ColumnDefinition c : rs.getColumnDefinitions()) {
                    cols.addArray().add(c.getName().asInternal()).add(c.getType().asCql(true, true));
                }
                ArrayNode rowsNode = out.putArray("rows");
                for (Row r : rows) {
                    ArrayNode rn = rowsNode.addArray();
                    for (int i = 0; i < r.size(); i++) {
                        Object v = r.getObject(i);
                        if (v == null) {
                            rn.addNull();
                        } else {
                            rn.add(render(r.getType(i), v));
                        }
                    }
                }
            }
            List<String> warnings = rs.getExecutionInfo().getWarnings();
            if (!warnings.isEmpty()) {
                ArrayNode w = out.putArray("warnings");
                warnings.forEach(w::add);
            }
        } catch (DriverException e) {
            if (e instanceof com.datastax.oss.driver.api.core.AllNodesFailedException all
                    && all.getAllErrors().size() == 1 && all.getAllErrors().values().iterator().next().size() == 1
                    && all.getAllErrors().values().iterator().next().get(0) instanceof DriverException only) {
                e = only; // the driver retried an Unavailable on the next node, of which there is none
            }
            ObjectNode err = out.putObject("error");
            err.put("code", code(e));
            err.put("message", e.getMessage());
        }
        return out;
    }

    /** Prepares {@code cql} and binds {@code values}, each parsed by the codec of its variable's type. */
    static com.datastax.oss.driver.api.core.cql.BoundStatement bound(CqlSession session, String cql,
                                                                     List<String> values) {
        com.datastax.oss.driver.api.core.cql.PreparedStatement ps = session.prepare(cql);
        var vars = ps.getVariableDefinitions();
        if (vars.size() != values.size()) {
            throw new IllegalArgumentException("@bind gives " + values.size() + " values for " + vars.size()
                    + " bind variables: " + cql);
        }
        com.datastax.oss.driver.api.core.cql.BoundStatementBuilder b = ps.boundStatementBuilder();
        var registry = session.getContext().getCodecRegistry();
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            if (v.equals("unset")) {
                b = b.unset(i);
                continue;
            }
            if (v.startsWith("raw:0x")) {
                // the exact bytes, whatever the variable's type (malformed values: deserialization errors)
                b = b.setBytesUnsafe(i, java.nio.ByteBuffer.wrap(java.util.HexFormat.of().parseHex(v.substring(6))));
                continue;
            }
            com.datastax.oss.driver.api.core.type.codec.TypeCodec<Object> codec = registry.codecFor(vars.get(i).getType());
            b = b.set(i, codec.parse(v), codec);
        }
        return b.build();
    }

    /** {@code st} run as its directives say: executed, or only prepared ({@code @prepare}). */
    static ObjectNode run(CqlSession session, Corpus.Statement st) {
        if (st.prepare()) {
            return prepare(session, st.cql());
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (true) {
            ObjectNode o = run(session, st.cql(), st.consistency(), st.serialConsistency(), st.pageSize(), st.bind());
            if (!st.retry() || !o.has("error") || !o.get("error").get("code").asText().equals("ReadFailureException")
                    || System.nanoTime() > deadline) {
                return o;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return o;
            }
        }
    }

    /**
     * What preparing {@code cql} answered: {@code {"cql", "variables": [[name, type]...], "pk_indexes": [...],
     * "columns": [[name, type]...]}}, or the error.
     */
    static ObjectNode prepare(CqlSession session, String cql) {
        ObjectNode out = JSON.createObjectNode();
        out.put("cql", cql);
        try {
            PreparedStatement ps = session.prepare(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(15)));
            ArrayNode vars = out.putArray("variables");
            for (ColumnDefinition c : ps.getVariableDefinitions()) {
                vars.addArray().add(c.getName().asInternal()).add(c.getType().asCql(true, true));
            }
            ArrayNode pk = out.putArray("pk_indexes");
            ps.getPartitionKeyIndices().forEach(pk::add);
            ArrayNode cols = out.putArray("columns");
            for (ColumnDefinition c : ps.getResultSetDefinitions()) {
                cols.addArray().add(c.getName().asInternal()).add(c.getType().asCql(true, true));
            }
        } catch (DriverException e) {
            ObjectNode err = out.putObject("error");
            err.put("code", code(e));
            err.put("message", e.getMessage());
        }
        return out;
    }

    static String code(DriverException e) {
        if (e instanceof SyntaxError) {
            return "0x2000";
        } else if (e instanceof UnauthorizedException) {
            return "0x2100";
        } else if (e instanceof InvalidConfigurationInQueryException) {
            return "0x2300";
        } else if (e instanceof InvalidQueryException) {
            return "0x2200";
        } else if (e instanceof AlreadyExistsException) {
            return "0x2400";
        } else if (e instanceof ServerError) {
            return "0x0000";
        } else if (e instanceof ProtocolError) {
            return "0x000A";
        } else if (e instanceof TruncateException) {
            return "0x1003";
        } else if (e instanceof FunctionFailureException) {
            return "0x1400";
        } else if (e instanceof com.datastax.oss.driver.api.core.servererrors.UnavailableException) {
            return "0x1000";
        }
        return e.getClass().getSimpleName();
    }

    static String render(DataType type, Object v) {
        if (v == null) {
            return "NULL";
        }
        if (type.equals(DataTypes.TIMESTAMP)) {
            return "'" + (Instant) v + "'";
        }
        if (type instanceof ListType lt) {
            return join("[", "]", lt.getElementType(), (Collection<?>) v);
        }
        if (type instanceof SetType st) {
            return join("{", "}", st.getElementType(), (Collection<?>) v);
        }
        if (type instanceof MapType mt) {
            StringJoiner j = new StringJoiner(", ", "{", "}");
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                j.add(render(mt.getKeyType(), e.getKey()) + ": " + render(mt.getValueType(), e.getValue()));
            }
            return j.toString();
        }
        if (type instanceof TupleType tt) {
            TupleValue t = (TupleValue) v;
            StringJoiner j = new StringJoiner(", ", "(", ")");
            for (int i = 0; i < tt.getComponentTypes().size(); i++) {
                j.add(render(tt.getComponentTypes().get(i), t.getObject(i)));
            }
            return j.toString();
        }
        if (type instanceof UserDefinedType ut) {
            UdtValue u = (UdtValue) v;
            StringJoiner j = new StringJoiner(", ", "{", "}");
            for (int i = 0; i < ut.getFieldTypes().size(); i++) {
                j.add(ut.getFieldNames().get(i).asCql(true) + ": " + render(ut.getFieldTypes().get(i), u.getObject(i)));
            }
            return j.toString();
        }
        if (v instanceof CqlVector<?> vec) {
            List<String> parts = new ArrayList<>();
            vec.forEach(x -> parts.add(String.valueOf(x)));
            return "[" + String.join(", ", parts) + "]";
        }
        return CodecRegistry.DEFAULT.codecFor(type).format(v);
    }

    private static String join(String open, String close, DataType element, Collection<?> values) {
        StringJoiner j = new StringJoiner(", ", open, close);
        for (Object o : values) {
            j.add(render(element, o));
        }
        return j.toString();
    }

    /** Null when {@code actual} matches {@code expected} under the statement's directives, else a description. */
    static String compare(Corpus.Statement st, JsonNode expected, JsonNode actual) {
        if (expected.has("error") || actual.has("error")) {
            if (!expected.has("error")) {
                return "expected success " + expected + "\nbut got error " + actual.get("error");
            }
            if (!actual.has("error")) {
                return "expected error " + expected.get("error") + "\nbut got " + actual;
            }
            JsonNode e = expected.get("error");
            JsonNode a = actual.get("error");
            if (!e.get("code").equals(a.get("code"))) {
                return "error code: expected " + e + "\nbut got " + a;
            }
            if (st.anyMessage()) {
                return null;
            }
            String em = e.get("message").asText();
            String am = a.get("message").asText();
            if (st.msgFragment() != null) {
                return am.contains(st.msgFragment()) ? null
                        : "error message should contain [" + st.msgFragment() + "] but was: " + am;
            }
            return em.equals(am) ? null : "error message:\n expected: " + em + "\n   actual: " + am;
        }
        if (!expected.path("variables").equals(actual.path("variables"))) {
            return "bind variables: expected " + expected.path("variables") + "\n     but got " + actual.path("variables");
        }
        if (!expected.path("pk_indexes").equals(actual.path("pk_indexes"))) {
            return "pk_indexes: expected " + expected.path("pk_indexes") + "\n     but got " + actual.path("pk_indexes");
        }
        if (!expected.path("pages").equals(actual.path("pages"))) {
            return "rows per page: expected " + expected.path("pages") + "\n     but got " + actual.path("pages");
        }
        JsonNode ec = expected.path("columns");
        JsonNode ac = actual.path("columns");
        if (!ec.equals(ac)) {
            return "columns: expected " + ec + "\n     but got " + ac;
        }
        List<String> er = rows(expected, ec);
        List<String> ar = rows(actual, ec);
        if (st.unordered()) {
            er = er.stream().sorted().toList();
            ar = ar.stream().sorted().toList();
        }
        if (!rowsMatch(ec, er, ar, expected, actual, st.unordered())) {
            return "rows: expected\n  " + String.join("\n  ", er) + "\nbut got\n  " + String.join("\n  ", ar);
        }
        if (!st.ignoreWarnings() && !expected.path("warnings").equals(actual.path("warnings"))) {
            return "warnings: expected " + expected.path("warnings") + "\n      but got " + actual.path("warnings");
        }
        return null;
    }

    private static List<String> rows(JsonNode outcome, JsonNode columns) {
        List<String> out = new ArrayList<>();
        for (JsonNode r : outcome.path("rows")) {
            out.add(r.toString());
        }
        return out;
    }

    /** Two TTLs, or two lists of TTLs ({@code [NULL, 50000]}, of a collection's cells), a few seconds apart. */
    private static boolean ttlsClose(String expected, String actual) {
        if (expected.startsWith("[") && actual.startsWith("[")) {
            String[] e = expected.substring(1, expected.length() - 1).split(", ");
            String[] a = actual.substring(1, actual.length() - 1).split(", ");
            if (e.length != a.length) {
                return false;
            }
            for (int i = 0; i < e.length; i++) {
                if (!e[i].equals(a[i]) && (e[i].equals("NULL") || a[i].equals("NULL") || !ttlsClose(e[i], a[i]))) {
                    return false;
                }
            }
            return true;
        }
        try {
            return Math.abs(Long.parseLong(expected) - Long.parseLong(actual)) <= 5;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Exact row equality, except that {@code ttl(...)} columns (a countdown) may differ by a few seconds. */
    private static boolean rowsMatch(JsonNode columns, List<String> er, List<String> ar, JsonNode expected,
            JsonNode actual, boolean unordered) {
        if (er.equals(ar)) {
            return true;
        }
        if (er.size() != ar.size() || unordered) {
            return false;
        }
        JsonNode erows = expected.path("rows");
        JsonNode arows = actual.path("rows");
        for (int r = 0; r < erows.size(); r++) {
            for (int c = 0; c < columns.size(); c++) {
                JsonNode ev = erows.get(r).get(c);
                JsonNode av = arows.get(r).get(c);
                if (ev.equals(av)) {
                    continue;
                }
                boolean ttl = columns.get(c).get(0).asText().startsWith("ttl(");
                if (!ttl || ev.isNull() || av.isNull() || !ttlsClose(ev.asText(), av.asText())) {
                    return false;
                }
            }
        }
        return true;
    }
}
