package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import io.charybdis.node.config.DataSize;
import io.charybdis.node.server.CqlServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

import static io.charybdis.node.driver.RawCqlClient.OPCODE_ERROR;
import static io.charybdis.node.driver.RawCqlClient.OPCODE_RESULT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native-transport limits of cassandra.yaml, each on a node of its own: outbound back-pressure, bytes in flight
 * (back-pressure, or OVERLOADED with THROW_ON_OVERLOAD), connection limits, the idle timeout, the request rate
 * limit and native_transport_allow_older_protocols; and the accounting of bytes in flight returning to zero.
 */
@Timeout(120)
class NativeTransportLimitsTest {
    static final String LOCAL = "SELECT * FROM system.local";
    /** The same query made about 1 KiB long with trailing blanks: a few of them fill a small in-flight limit. */
    static final String LOCAL_1K = LOCAL + " ".repeat(1000);
    static final int OVERLOADED = 0x1001;

    static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(20);
        }
    }

    static void awaitNothingInFlight(CqlServer server) throws InterruptedException {
        awaitTrue("bytes in flight back to 0 (now " + server.bytesInFlight() + ")", () -> server.bytesInFlight() == 0);
        assertThat(server.bytesInFlight(InetAddress.getLoopbackAddress())).isZero();
    }

    static void healthyClientWorks(CqlSession session, int k) {
        session.execute("INSERT INTO limits.t (k, v) VALUES (" + k + ", " + k + ")");
        assertThat(session.execute("SELECT v FROM limits.t WHERE k = " + k).one().getInt(0)).isEqualTo(k);
    }

    static void createTable(CqlSession session) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS limits WITH replication = {'class': 'SimpleStrategy', "
                + "'replication_factor': 1}");
        session.execute("CREATE TABLE IF NOT EXISTS limits.t (k int PRIMARY KEY, v int)");
    }

    /**
     * Writes pipelined queries without reading any answer until {@code stalled} holds and the socket has taken
     * nothing for a second; returns the bytes written, or -1 if that did not happen within the time given. Then
     * checks that the socket stays stalled for another second.
     */
    static long floodUntilStalled(int port, Duration limit, BooleanSupplier stalled) throws Exception {
        byte[] chunk = RawCqlClient.pipelinedQueries(LOCAL, 1000);
        try (SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            ByteBuffer startup = ByteBuffer.wrap(RawCqlClient.frame(4, 0, RawCqlClient.OPCODE_STARTUP,
                    new byte[]{0, 1, 0, 11, 'C', 'Q', 'L', '_', 'V', 'E', 'R', 'S', 'I', 'O', 'N', 0, 5, '3', '.', '0',
                            '.', '0'}));
            while (startup.hasRemaining()) {
                ch.write(startup);
            }
            ch.configureBlocking(false);
            long written = 0;
            long lastProgress = System.nanoTime();
            long deadline = System.nanoTime() + limit.toNanos();
            ByteBuffer buf = ByteBuffer.wrap(chunk);
            while (System.nanoTime() < deadline) {
                if (!buf.hasRemaining()) {
                    buf.rewind();
                }
                int n = ch.write(buf);
                if (n > 0) {
                    written += n;
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > Duration.ofSeconds(1).toNanos()
                        && stalled.getAsBoolean()) {
                    Thread.sleep(1000);
                    if (!buf.hasRemaining()) {
                        buf.rewind();
                    }
                    assertThat(ch.write(buf)).as("the server reads nothing more while paused").isZero();
                    return written;
                } else {
                    Thread.sleep(5);
                }
            }
            return -1;
        }
    }

    @Test
    void shouldStopReadingFromClientThatDoesNotReadItsAnswers() throws Exception {
        try (TestNode n = new TestNode(); CqlSession healthy = n.session()) {
            createTable(healthy);
            CqlServer server = n.node.cqlServer();
            long written = floodUntilStalled(n.node.nativePort(), Duration.ofSeconds(60),
                    () -> server.pausesForWritability() > 0);
            // The server stopped reading: what was written sits in socket buffers, not in the heap.
            assertThat(written).as("bytes written before the server stopped reading").isPositive()
                    .isLessThan(256L << 20);
            healthyClientWorks(healthy, 1);
            awaitNothingInFlight(server);
        }
    }

    @Test
    void shouldPauseReadingWhenBytesInFlightOverTheLimitAndAnswerEverything() throws Exception {
        try (TestNode n = new TestNode(b -> b.nativeTransportMaxRequestDataInFlightPerIp(DataSize.ofBytes(2048))
                .nativeTransportMaxRequestDataInFlight(DataSize.ofBytes(4096)));
             CqlSession healthy = n.session()) {
            createTable(healthy);
            CqlServer server = n.node.cqlServer();
            int count = 5000;
            try (RawCqlClient c = new RawCqlClient(n.node.nativePort())) {
                c.startup();
                Thread writer = Thread.ofPlatform().start(() -> {
                    try {
                        c.send(RawCqlClient.pipelinedQueries(LOCAL_1K, count));
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                int results = 0;
                for (int i = 0; i < count; i++) {
                    RawCqlClient.Response r = c.read();
                    if (r.opcode() == OPCODE_RESULT) {
                        results++;
                    }
                    if (i == count / 2) {
                        healthyClientWorks(healthy, 2); // same client address, same small limit: not wedged
                    }
                }
                writer.join();
                assertThat(results).as("every pipelined request answered with a result").isEqualTo(count);
            }
            assertThat(server.pausesForInFlight()).isPositive();
            assertThat(server.overloadedRequests()).isZero();
            awaitNothingInFlight(server);
        }
    }

    @Test
    void shouldAnswerOverloadedWhenClientAskedForThrowOnOverload() throws Exception {
        try (TestNode n = new TestNode(b -> b.nativeTransportMaxRequestDataInFlightPerIp(DataSize.ofBytes(2048)))) {
            CqlServer server = n.node.cqlServer();
            int count = 2000;
            try (RawCqlClient c = new RawCqlClient(n.node.nativePort())) {
                assertThat(c.startup(Map.of("THROW_ON_OVERLOAD", "1")).opcode()).isEqualTo(RawCqlClient.OPCODE_READY);
                c.send(RawCqlClient.pipelinedQueries(LOCAL_1K, count));
                int results = 0;
                int overloaded = 0;
                String message = null;
                for (int i = 0; i < count; i++) {
                    RawCqlClient.Response r = c.read();
                    if (r.opcode() == OPCODE_RESULT) {
                        results++;
                    } else {
                        assertThat(r.opcode()).isEqualTo(OPCODE_ERROR);
                        assertThat(r.errorCode()).isEqualTo(OVERLOADED);
                        overloaded++;
                        message = r.errorMessage();
                    }
                }
                assertThat(results + overloaded).isEqualTo(count);
                assertThat(overloaded).isPositive();
                assertThat(results).isPositive();
                assertThat(message).startsWith("Request breached limit on bytes in flight. (Endpoint: ")
                        .endsWith("Server is currently in an overloaded state and cannot accept more requests.");
            }
            assertThat(server.overloadedRequests()).isPositive();
            assertThat(server.pausesForInFlight()).isZero();
            awaitNothingInFlight(server);
        }
    }

    @Test
    void shouldCloseConnectionsBeyondThePerIpLimit() throws Exception {
        try (TestNode n = new TestNode(b -> b.nativeTransportMaxConcurrentConnectionsPerIp(3))) {
            CqlServer server = n.node.cqlServer();
            List<RawCqlClient> open = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    RawCqlClient c = new RawCqlClient(n.node.nativePort());
                    open.add(c);
                    c.startup();
                }
                try (RawCqlClient extra = new RawCqlClient(n.node.nativePort())) {
                    assertThat(extra.closedByServer(10_000)).as("4th connection closed").isTrue();
                }
                assertThat(server.refusedConnections()).isEqualTo(1);
                open.remove(0).close();
                awaitTrue("closed connections uncounted", () -> server.countedConnections() == 2);
                try (RawCqlClient again = new RawCqlClient(n.node.nativePort())) {
                    again.startup();
                }
            } finally {
                for (RawCqlClient c : open) {
                    c.close();
                }
            }
            awaitTrue("all connections uncounted", () -> server.countedConnections() == 0);
        }
    }

    @Test
    void shouldCloseConnectionsBeyondTheNodeLimit() throws Exception {
        try (TestNode n = new TestNode(b -> b.nativeTransportMaxConcurrentConnections(2));
             RawCqlClient a = new RawCqlClient(n.node.nativePort());
             RawCqlClient b = new RawCqlClient(n.node.nativePort())) {
            a.startup();
            b.startup();
            try (RawCqlClient extra = new RawCqlClient(n.node.nativePort())) {
                assertThat(extra.closedByServer(10_000)).as("3rd connection closed").isTrue();
            }
            a.send(RawCqlClient.frame(4, 7, RawCqlClient.OPCODE_OPTIONS, new byte[0]));
            assertThat(a.read().opcode()).isEqualTo(RawCqlClient.OPCODE_SUPPORTED);
            assertThat(n.node.cqlServer().refusedConnections()).isEqualTo(1);
        }
    }

    @Test
    void shouldCloseIdleConnections() throws Exception {
        try (TestNode n = new TestNode(b -> b.nativeTransportIdleTimeout(Duration.ofMillis(400)));
             RawCqlClient idle = new RawCqlClient(n.node.nativePort());
             RawCqlClient busy = new RawCqlClient(n.node.nativePort())) {
            idle.startup();
            busy.startup();
            long until = System.nanoTime() + Duration.ofMillis(1500).toNanos();
            while (System.nanoTime() < until) {
                busy.send(RawCqlClient.frame(4, 1, RawCqlClient.OPCODE_OPTIONS, new byte[0]));
                assertThat(busy.read().opcode()).isEqualTo(RawCqlClient.OPCODE_SUPPORTED);
                Thread.sleep(50);
            }
            assertThat(idle.closedByServer(10_000)).as("idle connection closed").isTrue();
            busy.send(RawCqlClient.frame(4, 2, RawCqlClient.OPCODE_OPTIONS, new byte[0]));
            assertThat(busy.read().opcode()).as("busy connection still open").isEqualTo(RawCqlClient.OPCODE_SUPPORTED);
        }
    }

    @Test
    void shouldLimitTheRequestRate() throws Exception {
        try (TestNode n = new TestNode(b -> b.nativeTransportRateLimitingEnabled(true)
                .nativeTransportMaxRequestsPerSecond(50))) {
            CqlServer server = n.node.cqlServer();
            int overloaded = 0;
            String message = null;
            try (RawCqlClient c = new RawCqlClient(n.node.nativePort())) {
                assertThat(c.startup(Map.of("THROW_ON_OVERLOAD", "1")).opcode()).isEqualTo(RawCqlClient.OPCODE_READY);
                c.send(RawCqlClient.pipelinedQueries(LOCAL, 300));
                for (int i = 0; i < 300; i++) {
                    RawCqlClient.Response r = c.read();
                    if (r.isError()) {
                        assertThat(r.errorCode()).isEqualTo(OVERLOADED);
                        message = r.errorMessage();
                        overloaded++;
                    }
                }
            }
            assertThat(overloaded).isPositive();
            assertThat(message).isEqualTo("Request breached global limit of 50 requests/second. Server is currently"
                    + " in an overloaded state and cannot accept more requests.");
            try (RawCqlClient c = new RawCqlClient(n.node.nativePort())) {
                c.startup();
                c.send(RawCqlClient.pipelinedQueries(LOCAL, 100));
                for (int i = 0; i < 100; i++) {
                    assertThat(c.read().opcode()).isEqualTo(OPCODE_RESULT);
                }
            }
            assertThat(server.pausesForRate()).isPositive();
            awaitNothingInFlight(server);
        }
    }

    @Test
    void shouldServeOnlyV5WhenOlderProtocolsAreNotAllowed() throws Exception {
        try (TestNode n = new TestNode(b -> b.nativeTransportAllowOlderProtocols(false))) {
            try (RawCqlClient c = new RawCqlClient(n.node.nativePort())) {
                RawCqlClient.Response r = c.startup(Map.of());
                assertThat(r.errorCode()).isEqualTo(0x000A);
                assertThat(r.errorMessage()).isEqualTo("Rejecting Protocol Version 4/v4 < 5/v5.");
                assertThat(c.closedByServer(10_000)).isTrue();
            }
            try (CqlSession session = n.session()) {
                assertThat(session.getContext().getProtocolVersion().getCode()).isEqualTo(5);
                assertThat(session.execute("SELECT release_version FROM system.local").one()).isNotNull();
            }
        }
    }

    @Test
    void shouldReturnBytesInFlightToZeroAfterLoad() throws Exception {
        try (TestNode n = new TestNode(b -> b.nativeTransportMaxRequestDataInFlightPerIp(DataSize.ofKibibytes(8)));
             CqlSession s1 = n.session(); CqlSession s2 = n.session()) {
            createTable(s1);
            CqlServer server = n.node.cqlServer();
            var insert = s1.prepare("INSERT INTO limits.t (k, v) VALUES (?, ?)");
            // A client that vanishes with answers and requests still pending, while others load the node.
            try (RawCqlClient c = new RawCqlClient(n.node.nativePort())) {
                c.startup();
                c.send(RawCqlClient.pipelinedQueries(LOCAL_1K, 5000));
            }
            for (int batch = 0; batch < 8; batch++) {
                List<CompletionStage<?>> pending = new ArrayList<>();
                for (int i = batch * 500; i < (batch + 1) * 500; i++) {
                    CqlSession s = (i & 1) == 0 ? s1 : s2;
                    pending.add(s.executeAsync(insert.bind(i, i)));
                    pending.add(s.executeAsync("SELECT v FROM limits.t WHERE k = " + i + " " + " ".repeat(i % 700)));
                }
                for (CompletionStage<?> f : pending) {
                    f.toCompletableFuture().get();
                }
            }
            awaitNothingInFlight(server);
            for (int k : new int[]{0, 1, 1999, 3999}) {
                assertThat(s2.execute("SELECT v FROM limits.t WHERE k = " + k).one().getInt(0)).isEqualTo(k);
            }
        }
    }
}
