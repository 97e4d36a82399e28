package io.charybdis.node;

import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.cluster.messaging.Verb;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Test-only network partitions between node processes ({@code -Dcharybdis.test.partition_file=PATH}, never a
 * configuration key): the file lists, one per line, the addresses of nodes this node is cut off from; every
 * internode frame this node would send to one of them (requests and answers) is dropped. Writing each side's
 * address into the other's file cuts both directions, as a network partition would; emptying the files heals it.
 * The file is read every {@link #POLL_MILLIS} ms by a thread of its own; a missing file cuts nothing.
 */
final class PartitionFile implements FaultInjector, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionFile.class);
    static final String PROPERTY = "charybdis.test.partition_file";
    static final long POLL_MILLIS = 50;

    private final Path file;
    private volatile Set<String> cut = Set.of();
    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "test-partition-file");
        t.setDaemon(true);
        return t;
    });

    private PartitionFile(Path file) {
        this.file = file;
        poller.scheduleWithFixedDelay(this::read, 0, POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The injector the system property names, or null when it names none. */
    static PartitionFile fromSystemProperty() {
        String path = System.getProperty(PROPERTY);
        if (path == null || path.isBlank()) {
            return null;
        }
        LOG.warn("TEST ONLY: internode traffic to the nodes listed in {} is dropped ({})", path, PROPERTY);
        return new PartitionFile(Path.of(path));
    }

    private void read() {
        Set<String> next = new HashSet<>();
        try {
            for (String line : Files.readAllLines(file)) {
                if (!line.isBlank()) {
                    next.add(line.strip());
                }
            }
        } catch (NoSuchFileException e) {
            // nothing cut
        } catch (IOException e) {
            return; // being rewritten: keep the last list
        }
        if (!next.equals(cut)) {
            LOG.warn("TEST ONLY: cut off from {}", next);
            cut = Set.copyOf(next);
        }
    }

    @Override
    public long onSend(InetSocketAddress from, InetSocketAddress to, Verb verb, boolean response) {
        Set<String> c = cut;
        return !c.isEmpty() && c.contains(to.getAddress().getHostAddress()) ? DROP : 0;
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
