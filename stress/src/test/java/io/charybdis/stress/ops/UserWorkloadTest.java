package io.charybdis.stress.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.stress.settings.SettingsException;
import io.charybdis.stress.settings.StressSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ops(...) against profiles, and what a user command defaults to; no cluster needed. */
class UserWorkloadTest {

    @TempDir
    Path dir;

    private static String events() throws Exception {
        return Path.of(UserWorkloadTest.class.getResource("/profiles/events.yaml").toURI()).toString();
    }

    private static UserWorkload load(String line) {
        return UserWorkload.load(StressSettings.parse(line.split(" ")));
    }

    private Path profile(String name, String yaml) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, yaml);
        return p;
    }

    @Test
    void shouldNameOperationsAsOpsDoesWithTheirWeights() throws Exception {
        UserWorkload w = load("user profile=" + events() + " ops(insert=2,READ1=1,point=3) n=10");
        assertThat(w.operationNames()).containsExactly("insert", "READ1", "point");
        assertThat(w.weights()).containsExactly(2, 1, 3);
        assertThat(w.keyspace()).isEqualTo("stress_user");
    }

    @Test
    void shouldRejectUnknownAndUnsupportedOperations() throws Exception {
        assertThatThrownBy(() -> load("user profile=" + events() + " ops(insert=1,read2=1) n=10"))
                .isInstanceOf(SettingsException.class)
                .hasMessage("Unknown operation read2 in ops(...): profile " + events() + " defines insert, read1, range1, point");
        Path scan = profile("scan.yaml", "keyspace: ks\ntable: t\ntoken_range_queries:\n  all:\n    columns: '*'\n");
        assertThatThrownBy(() -> load("user profile=" + scan + " ops(all=1) n=10"))
                .hasMessage("Operation all in ops(...) is one of the token_range_queries of profile " + scan
                        + ", which charybdis-stress does not run yet");
    }

    @Test
    void shouldQualifyOperationsWithSeveralProfiles() throws Exception {
        Path other = profile("other.yaml", "specname: other\nkeyspace: stress_user\ntable: t2\n"
                + "queries:\n  q: SELECT * FROM t2 WHERE k = ?\n");
        UserWorkload w = load("user profile=" + events() + "," + other
                + " ops(stress_user.events.insert=1,other.q=1,other.insert=1) n=10");
        assertThat(w.operationNames()).containsExactly("stress_user.events.insert", "other.q", "other.insert");
        assertThatThrownBy(() -> load("user profile=" + events() + "," + other + " ops(insert=1) n=10"))
                .hasMessage("Operation insert in ops(...) is ambiguous with several profiles: name it <specname>.insert"
                        + " (specnames: stress_user.events, other)");
        assertThatThrownBy(() -> load("user profile=" + events() + "," + other + " ops(nobody.insert=1) n=10"))
                .hasMessage("Unknown operation nobody.insert in ops(...): no profile is named nobody"
                        + " (profiles: stress_user.events, other)");
        Path elsewhere = profile("elsewhere.yaml", "keyspace: ks2\ntable: t\n");
        assertThatThrownBy(() -> load("user profile=" + events() + "," + elsewhere + " ops(ks2.t.insert=1) n=10"))
                .hasMessage("Profiles " + events() + " and " + elsewhere + " use different keyspaces (stress_user, ks2);"
                        + " charybdis-stress runs profiles of one keyspace together");
    }

    @Test
    void shouldDefaultToASequenceOnlyForInsertOnlyRuns() throws Exception {
        StressSettings inserts = StressSettings.parse(("user profile=" + events() + " ops(insert=1) n=500").split(" "));
        assertThat(inserts.population().sequential()).isTrue();
        assertThat(inserts.population().distribution().toString()).isEqualTo("seq(1..500)");
        StressSettings mixed = StressSettings.parse(("user profile=" + events() + " ops(insert=1,read1=1) n=500").split(" "));
        assertThat(mixed.population().sequential()).isFalse();
        assertThat(mixed.population().distribution().toString()).isEqualTo("gaussian(1..500)");
    }

    @Test
    void shouldDescribeTheProfileInTheSettingsDump() throws Exception {
        UserWorkload w = load("user profile=" + events() + " ops(insert=1) n=10 -insert partitions=fixed(2)");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        w.describe(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("  Profile: " + events() + "\n    Keyspace Name: stress_user\n")
                .contains("    Table CQL: CREATE TABLE events (\n          sensor text,\n")
                .contains("      kind: population=uniform(1..5) cluster=fixed(2)\n")
                .contains("      range1: SELECT at, reading FROM events WHERE sensor = ? AND at >= ? AND at <= ? (fields: multirow)\n")
                .contains("    Insert Settings: partitions=fixed(2), select=uniform(5..10)/10, batchtype=UNLOGGED\n");
    }
}
