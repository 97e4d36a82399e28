package io.charybdis.node.driver;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** A protocol v4 client on a plain socket, for tests that pipeline requests the way no driver would. */
final class RawCqlClient implements AutoCloseable {
    static final int OPCODE_ERROR = 0x00;
    static final int OPCODE_STARTUP = 0x01;
    static final int OPCODE_READY = 0x02;
    static final int OPCODE_OPTIONS = 0x05;
    static final int OPCODE_SUPPORTED = 0x06;
    static final int OPCODE_QUERY = 0x07;
    static final int OPCODE_RESULT = 0x08;

    /** A response read off the socket. */
    record Response(int version, int stream, int opcode, ByteBuffer body) {
        boolean isError() {
            return opcode == OPCODE_ERROR;
        }

        int errorCode() {
            return body.getInt(0);
        }

        String errorMessage() {
            int len = body.getShort(4);
            return new String(body.array(), 6, len, StandardCharsets.UTF_8);
        }
    }

    final Socket socket = new Socket();
    final OutputStream out;
    final DataInputStream in;

    RawCqlClient(int port) throws IOException {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(20_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    static byte[] frame(int version, int stream, int opcode, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(9 + body.length);
        b.put((byte) version).put((byte) 0).putShort((short) stream).put((byte) opcode).putInt(body.length).put(body);
        return b.array();
    }

    static byte[] queryBody(String cql) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] q = cql.getBytes(StandardCharsets.UTF_8);
        b.writeBytes(ByteBuffer.allocate(4).putInt(q.length).array());
        b.writeBytes(q);
        b.writeBytes(new byte[]{0, 1, 0}); // consistency ONE, no flags
        return b.toByteArray();
    }

    /** {@code count} QUERY envelopes one after the other, streams {@code 0..count-1} modulo 32768. */
    static byte[] pipelinedQueries(String cql, int count) {
        byte[] body = queryBody(cql);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            b.writeBytes(frame(4, i % 32768, OPCODE_QUERY, body));
        }
        return b.toByteArray();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Response read() throws IOException {
        byte[] h = new byte[9];
        in.readFully(h);
        ByteBuffer hb = ByteBuffer.wrap(h);
        int version = hb.get() & 0x7F;
        hb.get();
        int stream = hb.getShort();
        int opcode = hb.get() & 0xFF;
        byte[] body = new byte[hb.getInt()];
        in.readFully(body);
        return new Response(version, stream, opcode, ByteBuffer.wrap(body));
    }

    /** STARTUP (v4) with {@code extra} options; returns the server's answer. */
    Response startup(Map<String, String> extra) throws IOException {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("CQL_VERSION", "3.0.0");
        options.putAll(extra);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(ByteBuffer.allocate(2).putShort((short) options.size()).array());
        options.forEach((k, v) -> {
            writeString(b, k);
            writeString(b, v);
        });
        send(frame(4, 0, OPCODE_STARTUP, b.toByteArray()));
        return read();
    }

    void startup() throws IOException {
        Response r = startup(Map.of());
        if (r.opcode() != OPCODE_READY) {
            throw new IOException("expected READY, got opcode " + r.opcode());
        }
    }

    /** True when the server closed the connection (EOF or reset) within the socket timeout. */
    boolean closedByServer(int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (EOFException e) {
            return true;
        } catch (IOException e) {
            return true;
        }
    }

    private static void writeString(ByteArrayOutputStream b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.write(bytes.length >> 8);
        b.write(bytes.length);
        b.write(bytes, 0, bytes.length);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
