package io.charybdis.stress;

import static io.charybdis.stress.InProcessNode.stress;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code user profile=...} against an in-process Charybdis node: a compound-key table (profiles/events.yaml)
 * created from the profile, filled by inserts, then a mix of inserts and the profile's queries; the documented
 * example under stress/profiles; and bad profiles failing cleanly.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class UserProfileEndToEndTest {

    private static final int PARTITIONS = 1_000;

    @RegisterExtension
    static final InProcessNode NODE = new InProcessNode();
    @TempDir
    static Path dir;
    private static String profile;

    @BeforeAll
    static void findProfile() throws Exception {
        profile = Path.of(UserProfileEndToEndTest.class.getResource("/profiles/events.yaml").toURI()).toString();
    }

    @Test
    @Order(1)
    void shouldCreateTheSchemaAndInsertEveryPartitionWhole() {
        String text = stress("user profile=" + profile + " ops(insert=1) n=" + PARTITIONS + " cl=ONE no-warmup"
                + " -insert partitions=fixed(1) select-ratio=fixed(1)/1 -pop seq=1.." + PARTITIONS
                + " -rate threads=8" + NODE.target(), 0);
        assertThat(text).contains("  Profile: " + profile);
        assertThat(text).contains("Generating batches with [1..1] partitions and [4..16] rows (of [4..16] total rows in the partitions)");
        assertThat(text).contains("Total partitions          :      1,000 [insert: 1,000]");
        assertThat(text).contains("Total errors              :          0 [insert: 0]");
        try (CqlSession s = NODE.session()) {
            List<Row> keys = s.execute("SELECT DISTINCT sensor FROM stress_user.events").all();
            assertThat(keys).hasSize(PARTITIONS);
            assertThat(keys).allSatisfy(r -> assertThat(r.getString("sensor")).hasSize(12));
            long rows = s.execute("SELECT count(*) FROM stress_user.events").one().getLong(0);
            // 2 to 8 times per partition, 1 or 2 kinds (two draws of 1..5 may be equal)
            assertThat(rows).isBetween(2L * PARTITIONS, 16L * PARTITIONS);
            Row r = s.execute("SELECT * FROM stress_user.events LIMIT 1").one();
            assertThat(r.getByteBuffer("payload").remaining()).isBetween(16, 64);
            assertThat(r.getInstant("at")).isNotNull();
        }
    }

    @Test
    @Order(2)
    void shouldRunInsertsAndQueriesReportingEachOperation() {
        String text = stress("user profile=" + profile + " ops(insert=1,read1=1,range1=1,point=1) n=20000 cl=ONE"
                + " no-warmup -pop dist=uniform(1.." + PARTITIONS + ") -rate threads=16" + NODE.target(), 0);
        assertThat(text).contains("Running [insert, read1, range1, point] with 16 threads for 20000 iteration");
        assertThat(text).containsPattern("(?m)^insert,\\s+\\d+,").containsPattern("(?m)^read1,\\s+\\d+,")
                .containsPattern("(?m)^range1,\\s+\\d+,").containsPattern("(?m)^point,\\s+\\d+,");
        assertThat(text).containsPattern("Op rate\\s+:\\s+[\\d,]+ op/s\\s+\\[insert: [\\d,]+ op/s, read1: [\\d,]+ op/s, "
                + "range1: [\\d,]+ op/s, point: [\\d,]+ op/s\\]");
        assertThat(text).containsPattern("Latency max\\s+:\\s+[\\d.]+ ms \\[insert: [\\d.]+ ms, read1: [\\d.]+ ms, "
                + "range1: [\\d.]+ ms, point: [\\d.]+ ms\\]");
        assertThat(text).contains("Total errors              :          0 [insert: 0, read1: 0, range1: 0, point: 0]");
        assertThat(text).containsPattern("(?m)^END$");
        // every partition was written whole first: each read, and each point query of a generated row, finds it
        long[] partitions = totalPartitions(text);
        assertThat(partitions[1]).isEqualTo(lastTotalOps(text, "read1"));
        assertThat(partitions[3]).isEqualTo(lastTotalOps(text, "point"));
        assertThat(partitions[0] + partitions[1] + partitions[2] + partitions[3])
                .isEqualTo(Long.parseLong(matcher(text, "Total partitions\\s+:\\s+([\\d,]+)").group(1).replace(",", "")));
        assertThat(partitions[0]).isGreaterThanOrEqualTo(lastTotalOps(text, "insert"));
    }

    @Test
    @Order(3)
    void shouldRunTheDocumentedTimeSeriesExample() {
        Path example = Path.of(System.getProperty("user.dir"), "profiles", "timeseries.yaml");
        assertThat(example).exists();
        String text = stress("user profile=" + example + " ops(insert=1,latest=3,window=1) n=3000 cl=ONE"
                + " truncate=once -rate threads=8" + NODE.target(), 0);
        assertThat(text).contains("Warming up insert with 3000 iterations...");
        assertThat(text).contains("Total errors              :          0 [insert: 0, latest: 0, window: 0]");
        try (CqlSession s = NODE.session()) {
            assertThat(s.execute("SELECT count(*) FROM stress_ts.readings").one().getLong(0)).isPositive();
        }
    }

    @Test
    @Order(4)
    void shouldRejectBadProfilesWithClearMessages() throws Exception {
        String missing = stress("user profile=" + dir.resolve("nope.yaml") + " ops(insert=1) n=10" + NODE.target(), 1);
        assertThat(missing).contains("Profile " + dir.resolve("nope.yaml") + " not found");

        String unknownOp = stress("user profile=" + profile + " ops(insert=1,bogus=1) n=10" + NODE.target(), 1);
        assertThat(unknownOp).contains("Unknown operation bogus in ops(...): profile " + profile
                + " defines insert, read1, range1, point");

        Path malformed = dir.resolve("malformed.yaml");
        Files.writeString(malformed, "keyspace: ks\ntable: [t\n");
        assertThat(stress("user profile=" + malformed + " ops(insert=1) n=10" + NODE.target(), 1))
                .contains("Profile " + malformed + " is not valid YAML: ").contains("line 3");

        Path badColumn = dir.resolve("badcolumn.yaml");
        Files.writeString(badColumn, Files.readString(Path.of(profile)).replace("- name: payload", "- name: paylod"));
        assertThat(stress("user profile=" + badColumn + " ops(insert=1) n=10 no-warmup" + NODE.target(), 1))
                .contains("Profile " + badColumn + ": columnspec names column paylod, which table stress_user.events"
                        + " does not have (its columns: ");

        Path badQuery = dir.resolve("badquery.yaml");
        Files.writeString(badQuery, Files.readString(Path.of(profile)).replace("FROM events WHERE sensor = ? LIMIT 10",
                "FROM events WHERE sensor = ? LIMIT ?"));
        assertThat(stress("user profile=" + badQuery + " ops(read1=1) n=10 no-warmup" + NODE.target(), 1))
                .contains("Profile " + badQuery + ": query read1 has a bind marker for [limit], which is not a column");

        for (String out : List.of(missing, unknownOp)) {
            assertThat(out).doesNotContain("\tat io.charybdis").doesNotContain("Exception");
        }
    }

    /** The per-operation figures of "Total partitions : N [insert: a, read1: b, range1: c, point: d]". */
    private static long[] totalPartitions(String text) {
        Matcher m = matcher(text, "Total partitions\\s+:\\s+[\\d,]+ \\[insert: ([\\d,]+), read1: ([\\d,]+), "
                + "range1: ([\\d,]+), point: ([\\d,]+)\\]");
        long[] out = new long[4];
        for (int i = 0; i < 4; i++) {
            out[i] = Long.parseLong(m.group(i + 1).replace(",", ""));
        }
        return out;
    }

    /** The total ops of the last interval line of an operation. */
    private static long lastTotalOps(String text, String op) {
        Matcher m = Pattern.compile("(?m)^" + op + ",\\s+(\\d+),").matcher(text);
        long last = -1;
        while (m.find()) {
            last = Long.parseLong(m.group(1));
        }
        return last;
    }

    private static Matcher matcher(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex + " in\n" + text).isTrue();
        return m;
    }
}
