package io.charybdis.stress.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.stress.dist.DistributionSpec.Kind;
import io.charybdis.stress.profile.StressProfile.ColumnSpec;
import io.charybdis.stress.profile.StressProfile.QuerySpec;
import io.charybdis.stress.settings.SettingsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StressProfileTest {

    @TempDir
    Path dir;

    private static Path events() throws Exception {
        return Path.of(StressProfileTest.class.getResource("/profiles/events.yaml").toURI());
    }

    @Test
    void shouldReadEverySectionOfAProfile() throws Exception {
        StressProfile p = StressProfile.load(events().toString());
        assertThat(p.source()).isEqualTo(events().toString());
        assertThat(p.keyspace()).isEqualTo("stress_user");
        assertThat(p.table()).isEqualTo("events");
        assertThat(p.qualifier()).isEqualTo("stress_user.events");
        assertThat(p.keyspaceDefinition())
                .isEqualTo("CREATE KEYSPACE stress_user WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        assertThat(p.tableDefinition()).startsWith("CREATE TABLE events (\n  sensor text,")
                .endsWith(") WITH CLUSTERING ORDER BY (at DESC, kind ASC)");
        assertThat(p.extraDefinitions()).containsExactly("CREATE INDEX IF NOT EXISTS events_by_kind ON events (kind)");
        assertThat(p.columnSpecs()).containsOnlyKeys("sensor", "at", "kind", "payload", "tags");
        ColumnSpec kind = p.columnSpecs().get("kind");
        assertThat(kind.cluster().kind()).isEqualTo(Kind.FIXED);
        assertThat(kind.population().max()).isEqualTo(5);
        assertThat(kind.size()).isNull();
        assertThat(p.columnSpecs().get("payload").size().toString()).isEqualTo("uniform(16..64)");
        assertThat(p.insert().partitions().max()).isEqualTo(3);
        assertThat(p.insert().select().divisor()).isEqualTo(10);
        assertThat(p.insert().select().min()).isEqualTo(0.5);
        assertThat(p.insert().batchType()).isEqualTo("UNLOGGED");
        assertThat(p.queries().keySet()).containsExactly("read1", "range1", "point");
        assertThat(p.queries().get("read1")).isEqualTo(new QuerySpec("read1", "SELECT * FROM events WHERE sensor = ? LIMIT 10", false));
        assertThat(p.queries().get("range1").multirow()).isTrue();
        assertThat(p.queries().get("point").cql()).isEqualTo("select * from events where sensor = ? and at = ? and kind = ?");
    }

    @Test
    void shouldLeaveOutWhatTheProfileDoesNotSay() {
        StressProfile p = StressProfile.parse("p.yaml", "keyspace: ks\ntable: t\n");
        assertThat(p.keyspaceDefinition()).isNull();
        assertThat(p.tableDefinition()).isNull();
        assertThat(p.specName()).isNull();
        assertThat(p.extraDefinitions()).isEmpty();
        assertThat(p.columnSpecs()).isEmpty();
        assertThat(p.insert()).isEqualTo(StressProfile.InsertSpec.NONE);
        assertThat(p.queries()).isEmpty();
        assertThat(p.tokenRangeQueries()).isEmpty();
    }

    @Test
    void shouldAcceptOptionsInAnyCaseAndTheOldNames() {
        StressProfile p = StressProfile.parse("p.yaml", """
                specname: mine
                keyspace: ks
                table: t
                columnspec:
                  - Name: c
                    SIZE: fixed(3)
                    Population: seq(1..10)
                insert:
                  PertBatch: fixed(1)/2
                  BatchType: unlogged
                queries:
                  q:
                    CQL: SELECT * FROM t WHERE k = ?
                    Fields: MultiRow
                token_range_queries:
                  all:
                    columns: '*'
                """);
        assertThat(p.qualifier()).isEqualTo("mine");
        assertThat(p.columnSpecs().get("c").population().kind()).isEqualTo(Kind.SEQ);
        assertThat(p.insert().select().max()).isEqualTo(0.5);
        assertThat(p.insert().batchType()).isEqualTo("UNLOGGED");
        assertThat(p.queries().get("q").multirow()).isTrue();
        assertThat(p.tokenRangeQueries()).containsExactly("all");
    }

    @Test
    void shouldReadAFileUri() throws Exception {
        StressProfile p = StressProfile.load(events().toUri().toString());
        assertThat(p.table()).isEqualTo("events");
    }

    @Test
    void shouldNameTheProfileAndThePlaceOfEveryProblem() throws Exception {
        assertError("keyspace: ks\ntable: t\ntabel_definition: x\n",
                "Profile p.yaml: unknown key 'tabel_definition' (expected columnspec, extra_definitions, insert, keyspace, "
                        + "keyspace_definition, queries, specname, table, table_definition, token_range_queries)");
        assertError("table: t\n", "Profile p.yaml: keyspace name is required");
        assertError("keyspace: ks\n", "Profile p.yaml: table name is required");
        assertError("", "Profile p.yaml: the profile must be a mapping of keys to values, not nothing");
        assertError("keyspace: ks\ntable: t\ncolumnspec:\n  - name: c\n    size: bogus(1..2)\n",
                "Profile p.yaml: columnspec 'c' size: Illegal distribution type: bogus");
        assertError("keyspace: ks\ntable: t\ncolumnspec:\n  - name: c\n    sise: fixed(1)\n",
                "Profile p.yaml: unrecognised option(s) in columnspec 'c': sise (expected name, size, population, cluster)");
        assertError("keyspace: ks\ntable: t\ncolumnspec:\n  - size: fixed(1)\n",
                "Profile p.yaml: a columnspec entry has no name: {size=fixed(1)}");
        assertError("keyspace: ks\ntable: t\ncolumnspec:\n  name: c\n", "Profile p.yaml: columnspec must be a list, not '{name=c}'");
        assertError("keyspace: ks\ntable: t\ninsert:\n  batchtype: sometimes\n",
                "Profile p.yaml: insert batchtype SOMETIMES is not one of LOGGED, UNLOGGED, COUNTER");
        assertError("keyspace: ks\ntable: t\ninsert:\n  select: fixed(1)/zero\n",
                "Profile p.yaml: insert select: Invalid ratio: fixed(1)/zero (expected DIST(?)/divisor, e.g. uniform(1..10)/10)");
        assertError("keyspace: ks\ntable: t\ninsert:\n  partition: fixed(1)\n",
                "Profile p.yaml: unrecognised insert option(s): partition (expected partitions, select, batchtype, visits, "
                        + "revisit, row-population-ratio)");
        assertError("keyspace: ks\ntable: t\nqueries:\n  q:\n    cql: SELECT 1\n    fields: somerows\n",
                "Profile p.yaml: query 'q' has fields: somerows; expected samerow or multirow");
        assertError("keyspace: ks\ntable: t\nqueries:\n  q:\n    fields: samerow\n", "Profile p.yaml: query 'q' has no cql");
        assertError("keyspace: ks\ntable: t\ntable: u\n", "Profile p.yaml is not valid YAML: found duplicate key table (line 3, column 1)");
        assertError("keyspace: ks\n  table: t\n",
                "Profile p.yaml is not valid YAML: mapping values are not allowed here (line 2, column 8)");
    }

    @Test
    void shouldSayWhenTheFileIsMissing() {
        Path missing = dir.resolve("missing.yaml");
        assertThatThrownBy(() -> StressProfile.load(missing.toString())).isInstanceOf(SettingsException.class)
                .hasMessage("Profile " + missing + " not found: no such file " + missing);
    }

    @Test
    void shouldReadAProfileFromAFile() throws Exception {
        Path p = dir.resolve("p.yaml");
        Files.writeString(p, "keyspace: \"Quoted\"\ntable: t\n");
        assertThat(StressProfile.load(p.toString()).keyspace()).isEqualTo("Quoted");
    }

    private static void assertError(String yaml, String message) {
        assertThatThrownBy(() -> StressProfile.parse("p.yaml", yaml)).isInstanceOf(SettingsException.class)
                .hasMessage(message);
    }
}
