package io.charybdis.node.describe;

import io.charybdis.node.cql.statements.SchemaStatements;
import io.charybdis.node.cql.syntax.CqlParser;
import io.charybdis.node.cql.syntax.DescribeStatement;
import io.charybdis.node.cql.syntax.SchemaStatement;
import io.charybdis.node.cql.syntax.Statement;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.SchemaManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What DESCRIBE prints is CQL that parses and, replayed on an empty node, recreates the same schema. */
class DescriberRoundTripTest {
    private static final DescribeStatement SCHEMA = (DescribeStatement) CqlParser.parse("DESCRIBE SCHEMA");

    @Test
    void shouldRecreateTheSchemaFromItsDescription(@TempDir Path original, @TempDir Path replayed) {
        Schema schema = GoldenSchema.build(original);
        List<String> statements = describeSchema(schema);
        assertThat(statements).hasSizeGreaterThan(20);

        SchemaManager manager = GoldenSchema.manager(replayed);
        SchemaStatements ddl = new SchemaStatements(manager);
        for (String cql : statements) {
            Statement parsed = CqlParser.parse(cql);
            assertThat(parsed).as(cql).isInstanceOf(SchemaStatement.class);
            ddl.execute((SchemaStatement) parsed, null);
        }
        assertThat(describeSchema(manager.schema())).isEqualTo(statements);
    }

    @Test
    void shouldParseEveryStatementOfTheFullSchema(@TempDir Path dir) {
        Schema schema = GoldenSchema.build(dir);
        DescribeResult full = Describer.describe(schema, null, (DescribeStatement) CqlParser.parse(
                "DESCRIBE FULL SCHEMA WITH INTERNALS"), GoldenSchema.node(List.of()));
        for (int r = 0; r < full.rows().size(); r++) {
            String cql = full.text(r, 3);
            if (!cql.startsWith("/*")) {
                assertThat(CqlParser.parseScript(cql)).as(cql).isNotEmpty();
            }
        }
    }

    private static List<String> describeSchema(Schema schema) {
        DescribeResult result = Describer.describe(schema, null, SCHEMA, GoldenSchema.node(List.of()));
        List<String> out = new ArrayList<>();
        for (int r = 0; r < result.rows().size(); r++) {
            out.add(result.text(r, 3));
        }
        return out;
    }
}
