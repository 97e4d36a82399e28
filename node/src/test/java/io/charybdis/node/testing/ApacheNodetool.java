package io.charybdis.node.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Where tests find Apache Cassandra 5.0.6's own nodetool (the reference launcher) and the JDK 17 it runs on. */
public final class ApacheNodetool {
    /** The reference launcher next to the repository ({@code ../shared/tools/cassandra-reference/nodetool.sh}). */
    public static final Path NODETOOL = Path.of("").toAbsolutePath().getParent()
            .resolve("../shared/tools/cassandra-reference/nodetool.sh").normalize();

    private ApacheNodetool() {
    }

    /** A JDK 17 ({@code CASSANDRA_JAVA_HOME}, {@code JAVA17_HOME}, or a usual install path), or null. */
    public static Path jdk17() {
        for (String var : List.of("CASSANDRA_JAVA_HOME", "JAVA17_HOME")) {
            String v = System.getenv(var);
            if (v != null && Files.isExecutable(Path.of(v, "bin", "java"))) {
                return Path.of(v);
            }
        }
        for (String p : List.of("/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/java-17-openjdk-arm64",
                "/usr/lib/jvm/openjdk-17", "/usr/lib/jvm/java-17-openjdk")) {
            if (Files.isExecutable(Path.of(p, "bin", "java"))) {
                return Path.of(p);
            }
        }
        return null;
    }
}
