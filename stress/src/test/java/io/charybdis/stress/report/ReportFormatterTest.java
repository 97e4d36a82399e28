package io.charybdis.stress.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.stress.report.ReportFormatter.Summary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Golden tests against lines of cassandra-stress 5.0's sample output (src/test/resources/golden). */
class ReportFormatterTest {

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = ReportFormatterTest.class.getResourceAsStream("/golden/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void shouldFormatHeaderAndIntervalLinesExactly() throws IOException {
        List<String> g = golden("interval-lines.txt");
        assertThat(ReportFormatter.header()).isEqualTo(g.get(0));
        IntervalStats first = new IntervalStats("READ", 1469, 1469, 1469, 1469, 11.5, 10.0, 23.0, 46.1, 60.2, 78.9,
                1.0, 0, 0, GcStats.NONE);
        assertThat(ReportFormatter.row(first)).isEqualTo(g.get(1));
        IntervalStats gc = new IntervalStats("READ", 45861, 4739, 4739, 4739, 7.8, 5.7, 17.0, 38.8, 129.1, 135.1,
                11.0, 0.07548, 0, new GcStats(1, 106, 106, 106 * 106, 1146d * 1024 * 1024));
        assertThat(ReportFormatter.row(gc)).isEqualTo(g.get(2));
    }

    @Test
    void shouldFormatResultsBlockExactly() throws IOException {
        Summary total = new Summary("total", 8189, 8189, 8189, 6.0, 4.9, 13.2, 20.9, 51.1, 259.9, 495_580, 0);
        Summary read = new Summary("READ", 6138, 6138, 6138, 6.0, 4.9, 13.0, 20.7, 50.1, 259.9, 371_481, 0);
        Summary write = new Summary("WRITE", 2051, 2051, 2051, 6.2, 5.0, 13.6, 21.6, 52.9, 252.2, 124_099, 0);
        // 5 collections totalling 872 ms with stdev 48.8 ms, 5.615 GiB reclaimed
        double sum = 872;
        double mean = sum / 5;
        double sumSquares = 5 * (48.8 * 48.8 + mean * mean);
        GcStats gc = new GcStats(5, 250, sum, sumSquares, 5.615 * 1024 * 1024 * 1024);
        String text = ReportFormatter.results(total, List.of(read, write), gc, 60.4);
        assertThat(text.lines().toList()).isEqualTo(golden("results-mixed.txt"));
    }

    @Test
    void shouldFormatDurationsAndMemory() {
        assertThat(ReportFormatter.duration(3725)).isEqualTo("01:02:05");
        assertThat(ReportFormatter.prettyMemory(0)).isEqualTo("0 bytes");
        assertThat(ReportFormatter.prettyMemory(1536)).isEqualTo("1.500 KiB");
    }

    @Test
    void shouldAppendRunsToAnExistingGraph(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("g.html");
        GraphWriter first = new GraphWriter("rev1", "Title", "WRITE", "write n=1");
        first.interval(new IntervalStats("total", 10, 10, 10, 10, 1, 1, 1, 1, 1, 1, 1, 0, 0, GcStats.NONE));
        first.summary(new Summary("total", 10, 10, 10, 1, 1, 1, 1, 1, 1, 10, 0), 1);
        first.write(file);
        GraphWriter second = new GraphWriter("rev2 \"<b>\"", "Title", "READ", "read n=1");
        second.write(file);
        String page = Files.readString(file);
        assertThat(GraphWriter.storedRuns(page)).hasSize(2);
        assertThat(GraphWriter.storedRuns(page).get(0)).contains("\"revision\":\"rev1\"").contains("[1.000,10.0,");
        assertThat(GraphWriter.storedRuns(page).get(1)).contains("rev2 \\\"\\u003cb>\\\"");
        assertThat(page).startsWith("<!DOCTYPE html>").contains("<svg").doesNotContain("src=\"http", "<link", "import ");
    }
}
