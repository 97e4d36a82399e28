package io.charybdis.testcontainers;

import org.testcontainers.DockerClientFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The image the container tests run: {@code CHARYBDIS_TEST_IMAGE} if set, else {@code charybdis:test} built once
 * per test JVM by {@code docker/build-local-image.sh} from this checkout's node/target. Without a Docker engine the
 * tests are skipped, saying so.
 */
final class LocalImage {

    private static String image;

    private LocalImage() {
    }

    static synchronized String get() {
        assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "SKIPPED: no Docker engine answers (DOCKER_HOST=" + System.getenv("DOCKER_HOST")
                        + "); the container tests need one (.ci/run starts one)");
        if (image != null) {
            return image;
        }
        String given = System.getenv("CHARYBDIS_TEST_IMAGE");
        if (given != null && !given.isBlank()) {
            return image = given;
        }
        Path repo = Path.of(System.getProperty("charybdis.repo", "../.."));
        Path script = repo.resolve("docker/build-local-image.sh");
        assumeTrue(Files.isExecutable(script), "SKIPPED: " + script + " not found");
        try {
            Process p = new ProcessBuilder(script.toString(), "charybdis:test").directory(repo.toFile())
                    .redirectErrorStream(true).redirectOutput(repo.resolve("docker/testcontainers/target/build-local-image.log").toFile())
                    .start();
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("docker/build-local-image.sh failed; see "
                        + "docker/testcontainers/target/build-local-image.log");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the image", e);
        }
        return image = "charybdis:test";
    }
}
