package io.charybdis.node.describe;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.CqlParser;
import io.charybdis.node.cql.syntax.DescribeStatement;
import io.charybdis.node.schema.Schema;
import io.charybdis.protocol.types.DataType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every DESCRIBE of {@code golden/describe/queries.txt} against the schema of {@code schema.cql} gives exactly
 * what Apache Cassandra 5.0.6 gave ({@code describe.json}, recorded by {@code capture.py}): result columns, types,
 * rows, or the error message.
 */
class DescriberGoldenTest {
    private static final Pattern SERVER_MESSAGE = Pattern.compile("message=\"(.*)\"$", Pattern.DOTALL);

    @TempDir
    static Path dir;
    static Schema schema;

    @BeforeAll
    static void buildSchema() {
        schema = GoldenSchema.build(dir);
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    List<DynamicTest> shouldDescribeAsCassandra() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Object o : (List<Object>) GoldenSchema.json("describe/describe.json")) {
            Map<String, Object> entry = (Map<String, Object>) o;
            String query = (String) entry.get("query");
            String keyspace = (String) entry.get("keyspace");
            tests.add(DynamicTest.dynamicTest((keyspace == null ? "" : "[" + keyspace + "] ") + query,
                    () -> check(entry, query, keyspace)));
        }
        return tests;
    }

    @SuppressWarnings("unchecked")
    private static void check(Map<String, Object> entry, String query, String keyspace) {
        DescribeStatement stmt = (DescribeStatement) CqlParser.parse(query);
        List<String> tokens = new ArrayList<>();
        if (entry.get("error") != null) {
            Matcher m = SERVER_MESSAGE.matcher((String) ((Map<String, Object>) entry.get("error")).get("message"));
            assertThat(m.find()).isTrue();
            assertThatThrownBy(() -> Describer.describe(schema, keyspace, stmt, GoldenSchema.node(tokens)))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage(m.group(1).replace("\\'", "'"));
            return;
        }
        List<List<Object>> expectedRows = (List<List<Object>>) entry.get("rows");
        Map<String, List<String>> ranges = null;
        List<String> columns = (List<String>) entry.get("columns");
        if (columns.contains("range_ownership")) {
            ranges = (Map<String, List<String>>) expectedRows.get(0).get(3);
            tokens.addAll(ranges.keySet());
        }
        DescribeResult result = Describer.describe(schema, keyspace, stmt, GoldenSchema.node(tokens));
        assertThat(result.columnNames()).isEqualTo(columns);
        List<String> types = result.columnTypes().stream()
                .map(t -> t.cqlName().replace("text", "varchar")).toList();
        assertThat(types).isEqualTo(entry.get("types"));
        List<String> actual = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int r = 0; r < result.rows().size(); r++) {
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).equals("range_ownership")) {
                    DataType t = result.columnTypes().get(c);
                    ByteBuffer v = result.rows().get(r).get(c);
                    assertThat(v).isEqualTo(t.decompose(ranges));
                } else {
                    actual.add(result.text(r, c));
                }
            }
        }
        for (List<Object> row : expectedRows) {
            for (int c = 0; c < columns.size(); c++) {
                if (!columns.get(c).equals("range_ownership")) {
                    expected.add((String) row.get(c));
                }
            }
        }
        String got = String.join("\n--\n", actual);
        String want = String.join("\n--\n", expected);
        if (!got.equals(want)) {
            writeDiff(query, keyspace, got, want);
        }
        assertThat(got).isEqualTo(want);
        assertThat(result.rows()).hasSize(expectedRows.size());
    }

    /** Leaves both outputs under target/golden-diff/ for a diff tool when they differ. */
    private static void writeDiff(String query, String keyspace, String got, String want) {
        try {
            Path out = Path.of("target", "golden-diff");
            Files.createDirectories(out);
            String name = ((keyspace == null ? "" : keyspace + "_") + query).replaceAll("[^A-Za-z0-9_]+", "_");
            Files.writeString(out.resolve(name + ".actual"), got);
            Files.writeString(out.resolve(name + ".expected"), want);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
