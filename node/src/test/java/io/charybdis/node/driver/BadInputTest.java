package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.DataSize;
import io.charybdis.node.config.NodeConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Malformed input on raw sockets gets the error the native protocol prescribes (or a closed connection where it
 * says so), and a well-behaved client on another connection keeps working throughout.
 */
@Timeout(120)
class BadInputTest {
    static Path dir;
    static CharybdisNode node;
    static CqlSession healthy;

    /** TLS for the raw connections ({@code null}: plain text) and whether they log in after STARTUP. */
    static SSLContext tls;
    static boolean authenticate;

    @BeforeAll
    static void start() throws Exception {
        startNode(b -> b, b -> b);
    }

    static void startNode(UnaryOperator<NodeConfig.Builder> config, UnaryOperator<CqlSessionBuilder> client)
            throws Exception {
        dir = Files.createTempDirectory("charybdis-bad-input");
        node = CharybdisNode.start(config.apply(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).nativeTransportMaxFrameSize(DataSize.ofBytes(1 << 20)))
                .build());
        healthy = client.apply(CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1")).build();
        healthy.execute("CREATE KEYSPACE bad WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        healthy.execute("CREATE TABLE bad.t (k int PRIMARY KEY, v int)");
    }

    @AfterAll
    static void stop() throws Exception {
        healthy.close();
        node.close();
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** A response envelope read off the socket (v4 layout). */
    record Response(int version, int stream, int opcode, ByteBuffer body) {
        int errorCode() {
            assertThat(opcode).as("ERROR opcode").isEqualTo(0x00);
            return body.getInt(0);
        }

        String errorMessage() {
            int len = body.getShort(4);
            return new String(body.array(), 6, len, StandardCharsets.UTF_8);
        }
    }

    static final class Conn implements AutoCloseable {
        final Socket socket;
        final OutputStream out;
        final DataInputStream in;
        int lastFlags;

        Conn() throws IOException {
            Socket raw = new Socket();
            raw.connect(new InetSocketAddress("127.0.0.1", node.nativePort()), 5000);
            if (tls != null) {
                SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(raw, "127.0.0.1", node.nativePort(), true);
                ssl.startHandshake();
                socket = ssl;
            } else {
                socket = raw;
            }
            socket.setSoTimeout(10_000);
            out = socket.getOutputStream();
            in = new DataInputStream(socket.getInputStream());
        }

        void send(int version, int flags, int stream, int opcode, byte[] body) throws IOException {
            ByteBuffer h = ByteBuffer.allocate(9);
            h.put((byte) version).put((byte) flags).putShort((short) stream).put((byte) opcode).putInt(body.length);
            this.lastFlags = flags;
            out.write(h.array());
            out.write(body);
            out.flush();
        }

        Response read() throws IOException {
            byte[] h = new byte[9];
            in.readFully(h);
            ByteBuffer hb = ByteBuffer.wrap(h);
            int version = hb.get() & 0x7F;
            int flags = hb.get();
            int stream = hb.getShort();
            int opcode = hb.get() & 0xFF;
            int len = hb.getInt();
            byte[] body = new byte[len];
            in.readFully(body);
            if ((flags & 0x01) != 0) {
                int n = ByteBuffer.wrap(body).getInt();
                body = net.jpountz.lz4.LZ4Factory.fastestInstance().safeDecompressor()
                        .decompress(body, 4, body.length - 4, n);
            }
            return new Response(version, stream, opcode, ByteBuffer.wrap(body));
        }

        void startup(int version, String compression) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int entries = compression == null ? 1 : 2;
            b.write(new byte[]{0, (byte) entries});
            writeString(b, "CQL_VERSION");
            writeString(b, "3.0.0");
            if (compression != null) {
                writeString(b, "COMPRESSION");
                writeString(b, compression);
            }
            send(version, 0, 0, 0x01, b.toByteArray());
            Response r = read();
            if (authenticate) {
                assertThat(r.opcode()).as("AUTHENTICATE").isEqualTo(0x03);
                if (version >= 5) {
                    return; // v5 framing starts here; the v5 test sends its corrupt segment now
                }
                byte[] token = "\0cassandra\0cassandra".getBytes(StandardCharsets.UTF_8);
                send(version, 0, 0, 0x0F, ByteBuffer.allocate(4 + token.length).putInt(token.length).put(token).array());
                r = read();
                assertThat(r.opcode()).as("AUTH_SUCCESS").isEqualTo(0x10);
                return;
            }
            assertThat(r.opcode()).as("READY").isEqualTo(0x02);
        }

        boolean closedByServer() {
            try {
                while (true) {
                    if (in.read() < 0) {
                        return true;
                    }
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                return true;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static void writeString(ByteArrayOutputStream b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.write(bytes.length >> 8);
        b.write(bytes.length);
        b.write(bytes, 0, bytes.length);
    }

    static byte[] queryBody(String cql, byte[]... values) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] q = cql.getBytes(StandardCharsets.UTF_8);
        b.writeBytes(ByteBuffer.allocate(4).putInt(q.length).array());
        b.writeBytes(q);
        b.writeBytes(new byte[]{0, 1}); // consistency ONE
        b.write(values.length == 0 ? 0 : 0x01);
        if (values.length > 0) {
            b.writeBytes(ByteBuffer.allocate(2).putShort((short) values.length).array());
            for (byte[] v : values) {
                b.writeBytes(ByteBuffer.allocate(4).putInt(v.length).array());
                b.writeBytes(v);
            }
        }
        return b.toByteArray();
    }

    private static void healthyClientStillWorks() {
        int k = (int) (System.nanoTime() & 0xFFFF);
        healthy.execute("INSERT INTO bad.t (k, v) VALUES (" + k + ", 1)");
        assertThat(healthy.execute("SELECT v FROM bad.t WHERE k = " + k).one().getInt(0)).isEqualTo(1);
    }

    @Test
    void shouldAnswerUnsupportedVersionWithProtocolErrorThenClose() throws Exception {
        try (Conn c = new Conn()) {
            c.send(0x07, 0, 3, 0x05, new byte[0]);
            Response r = c.read();
            assertThat(r.errorCode()).isEqualTo(0x000A);
            assertThat(r.errorMessage()).contains("Invalid or unsupported protocol version (7)");
            assertThat(c.closedByServer()).isTrue();
        }
        healthyClientStillWorks();
    }

    @Test
    void shouldRejectUnknownOpcodeOnItsStream() throws Exception {
        try (Conn c = new Conn()) {
            c.startup(4, null);
            c.send(4, 0, 9, 0x55, new byte[0]);
            Response r = c.read();
            assertThat(r.stream()).isEqualTo(9);
            assertThat(r.errorCode()).isEqualTo(0x000A);
        }
        healthyClientStillWorks();
    }

    @Test
    void shouldRejectTruncatedBodyAndKeepTheConnection() throws Exception {
        try (Conn c = new Conn()) {
            c.startup(4, null);
            byte[] body = queryBody("SELECT * FROM bad.t");
            byte[] truncated = java.util.Arrays.copyOf(body, 10);
            c.send(4, 0, 4, 0x07, truncated);
            Response r = c.read();
            assertThat(r.stream()).isEqualTo(4);
            assertThat(r.errorCode()).isEqualTo(0x000A);
            c.send(4, 0, 5, 0x07, body);
            assertThat(c.read().opcode()).as("RESULT after the bad request").isEqualTo(0x08);
        }
        healthyClientStillWorks();
    }

    @Test
    void shouldRejectBodyLongerThanMaximumFrameSize() throws Exception {
        try (Conn c = new Conn()) {
            c.startup(4, null);
            byte[] huge = new byte[(1 << 20) + 100];
            c.send(4, 0, 6, 0x07, huge);
            Response r = c.read();
            assertThat(r.stream()).isEqualTo(6);
            assertThat(r.errorMessage()).contains("Request is too big");
        }
        healthyClientStillWorks();
    }

    @Test
    void shouldRejectCorruptLz4Body() throws Exception {
        try (Conn c = new Conn()) {
            c.startup(4, "lz4");
            byte[] garbage = {0, 0, 0, 100, (byte) 0xF0, 1, 2, 3, 4, 5};
            c.send(4, 0x01, 7, 0x07, garbage);
            Response r = c.read();
            assertThat(r.stream()).isEqualTo(7);
            assertThat(r.errorCode()).isEqualTo(0x000A);
        }
        healthyClientStillWorks();
    }

    @Test
    void shouldCloseTheConnectionOnBadV5FrameCrc() throws Exception {
        try (Conn c = new Conn()) {
            c.startup(5, null);
            // a v5 frame header: 17-bit length + self-contained flag, little-endian, then a wrong CRC24
            byte[] frame = new byte[6 + 4 + 4];
            ByteBuffer b = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
            int header = 4 | (1 << 17);
            b.put((byte) header).put((byte) (header >> 8)).put((byte) (header >> 16));
            b.put((byte) 0x12).put((byte) 0x34).put((byte) 0x56);
            c.out.write(frame);
            c.out.flush();
            assertThat(c.closedByServer()).isTrue();
        }
        healthyClientStillWorks();
    }

    @Test
    void shouldRejectInvalidValueForColumnType() throws Exception {
        try (Conn c = new Conn()) {
            c.startup(4, null);
            c.send(4, 0, 8, 0x07, queryBody("INSERT INTO bad.t (k, v) VALUES (?, ?)", new byte[]{0, 0, 0, 1},
                    new byte[]{1, 2, 3}));
            Response r = c.read();
            assertThat(r.stream()).isEqualTo(8);
            assertThat(r.errorCode()).isEqualTo(0x2200);
            // Cassandra's own message for a malformed int, which names no column
            assertThat(r.errorMessage()).isEqualTo("Expected 4 or 0 byte int (3)");
        }
        healthyClientStillWorks();
    }

    @Test
    void shouldAnswerCqlErrorsWithCassandraCodes() throws Exception {
        try (Conn c = new Conn()) {
            c.startup(4, null);
            c.send(4, 0, 1, 0x07, queryBody("SELEC * FROM bad.t"));
            assertThat(c.read().errorCode()).isEqualTo(0x2000);
            c.send(4, 0, 2, 0x07, queryBody("SELECT * FROM bad.nope"));
            assertThat(c.read().errorCode()).isEqualTo(0x2200);
            c.send(4, 0, 3, 0x07, queryBody("CREATE TABLE bad.t (k int PRIMARY KEY)"));
            assertThat(c.read().errorCode()).isEqualTo(0x2400);
            c.send(4, 0, 4, 0x0A, new byte[]{0, 2, 1, 2, 0, 1, 0});
            assertThat(c.read().errorCode()).isEqualTo(0x2500);
        }
        healthyClientStillWorks();
    }

    @Test
    void shouldRefuseRequestsBeforeStartup() throws Exception {
        try (Conn c = new Conn()) {
            c.send(4, 0, 1, 0x07, queryBody("SELECT * FROM bad.t"));
            assertThat(c.read().errorCode()).isEqualTo(0x000A);
        }
        healthyClientStillWorks();
    }

    static void drain(DataInputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // discard
            }
        } catch (EOFException | SocketTimeoutException ignored) {
            // done
        }
    }
}
