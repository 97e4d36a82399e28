package io.charybdis.testcontainers;

import org.testcontainers.containers.Container;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;

import java.io.IOException;
import java.time.Duration;

/**
 * Waits until the node answers a CQL query: runs the image's {@code cql-health} (STARTUP, login if asked, then
 * {@code SELECT release_version FROM system.local} over the native protocol) inside the container until it succeeds.
 */
public class CharybdisQueryWaitStrategy extends AbstractWaitStrategy {

    public CharybdisQueryWaitStrategy() {
        withStartupTimeout(Duration.ofMinutes(2));
    }

    @Override
    protected void waitUntilReady() {
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            if (!waitStrategyTarget.isRunning()) {
                throw new ContainerLaunchException("the container stopped before answering CQL: "
                        + waitStrategyTarget.getLogs());
            }
            try {
                Container.ExecResult r = waitStrategyTarget.execInContainer("cql-health");
                if (r.getExitCode() == 0) {
                    return;
                }
                last = r.getStderr().strip();
            } catch (IOException | RuntimeException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ContainerLaunchException("interrupted while waiting for CQL", e);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ContainerLaunchException("interrupted while waiting for CQL", e);
            }
        }
        throw new ContainerLaunchException("no CQL answer within " + startupTimeout + " (last: " + last + ")");
    }
}
