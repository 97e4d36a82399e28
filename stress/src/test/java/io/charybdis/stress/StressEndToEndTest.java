package io.charybdis.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes then reads 100,000 partitions through the real driver against an in-process Charybdis node, and checks
 * the run reports zero errors and a complete Results block (on an {@link InProcessNode}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StressEndToEndTest {

    private static final int PARTITIONS = 100_000;

    @RegisterExtension
    static final InProcessNode NODE = new InProcessNode();
    @TempDir
    static Path dir;

    private static String run(String line, int expectedStatus) {
        return InProcessNode.stress(line, expectedStatus);
    }

    private static void assertCompleteReport(String text, String kind) {
        assertThat(text).contains("******************** Stress Settings ********************");
        assertThat(text).contains(io.charybdis.stress.report.ReportFormatter.header());
        assertThat(text).containsPattern("(?m)^total,\\s+\\d+,");
        assertThat(text).contains("Results:");
        assertThat(text).containsPattern("Op rate\\s+:\\s+[\\d,]+ op/s\\s+\\[" + kind + ": [\\d,]+ op/s\\]");
        assertThat(text).containsPattern("Latency 99.9th percentile :\\s+[\\d.]+ ms");
        assertThat(text).contains("Total partitions          :    100,000 [" + kind + ": 100,000]");
        assertThat(text).contains("Total errors              :          0 [" + kind + ": 0]");
        assertThat(text).contains("Total operation time      : ");
        assertThat(text).containsPattern("(?m)^END$");
    }

    @Test
    @Order(1)
    void shouldWriteHundredThousandPartitions() throws Exception {
        Path log = dir.resolve("write.log");
        Path graph = dir.resolve("graph.html");
        String text = run("write n=" + PARTITIONS + " cl=ONE no-warmup" + NODE.target()
                + " -rate threads=32 -pop seq=1.." + PARTITIONS + " -log file=" + log + " -graph file=" + graph
                + " revision=write", 0);
        assertCompleteReport(text, "WRITE");
        assertThat(Files.readString(log)).contains("Total errors              :          0");
        assertThat(Files.readString(graph)).contains("\"revision\":\"write\"");
    }

    @Test
    @Order(2)
    void shouldReadThemAllBack() throws Exception {
        Path graph = dir.resolve("graph.html");
        String text = run("read n=" + PARTITIONS + " cl=ONE" + NODE.target()
                + " -rate threads=32 -pop seq=1.." + PARTITIONS + " -graph file=" + graph + " revision=read", 0);
        assertThat(text).contains("Warming up READ with 50000 iterations...");
        assertCompleteReport(text, "READ");
        assertThat(Files.readString(graph)).contains("\"revision\":\"write\"").contains("\"revision\":\"read\"");
    }
}
