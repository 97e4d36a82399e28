package io.charybdis.node.auth;

import io.charybdis.node.cql.ClientState;
import io.charybdis.node.cql.QueryProcessor;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.request.QueryOptions;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Statements the node runs on its own behalf (on system_auth), through the same processor, coordinator and storage as
 * a client's, as an internal client that no permission check applies to. Rows come back as lists of raw values; the
 * helpers below encode and decode the few types system_auth uses (text, boolean, set&lt;text&gt;).
 *
 * <p>Everything is asynchronous: these run on shard event loops, which must never wait for one another.
 */
public final class InternalQueries {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    private final QueryProcessor processor;
    private final ClientState internal = ClientState.internal();

    public InternalQueries(QueryProcessor processor) {
        this.processor = processor;
    }

    /** Runs {@code cql} with {@code values} bound; completes with its rows (empty for a write). */
    public CompletableFuture<List<List<ByteBuffer>>> execute(String cql, Consistency cl, ByteBuffer... values) {
        try {
            QueryProcessor.Prepared p = processor.prepare(cql, null, internal);
            QueryOptions options = new QueryOptions(cl, List.of(values), null, true, -1, null, null, Long.MIN_VALUE,
                    null, Integer.MIN_VALUE);
            return processor.execute(p, options, internal, ALLOC, ProtocolVersion.V5).thenApply(InternalQueries::rows);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** {@code [int kind][int flags][int columns][paging state?][metadata id?][int rows] rows...}, metadata skipped. */
    private static List<List<ByteBuffer>> rows(ResultMessage r) {
        while (r instanceof ResultMessage.Warned w) {
            r = w.inner();
        }
        if (!(r instanceof ResultMessage.Rows rows)) {
            return List.of();
        }
        ByteBuf body = rows.writer().finish();
        try {
            body.readInt(); // kind
            int flags = body.readInt();
            int columns = body.readInt();
            if ((flags & 0x0002) != 0) {
                int n = body.readInt();
                if (n > 0) {
                    body.skipBytes(n);
                }
            }
            if ((flags & 0x0008) != 0) {
                body.skipBytes(body.readUnsignedShort());
            }
            int count = body.readInt();
            List<List<ByteBuffer>> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                List<ByteBuffer> row = new ArrayList<>(columns);
                for (int c = 0; c < columns; c++) {
                    int len = body.readInt();
                    if (len < 0) {
                        row.add(null);
                    } else {
                        byte[] b = new byte[len];
                        body.readBytes(b);
                        row.add(ByteBuffer.wrap(b));
                    }
                }
                out.add(row);
            }
            return out;
        } finally {
            body.release();
        }
    }

    public static ByteBuffer text(String s) {
        return s == null ? null : ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    public static ByteBuffer bool(boolean b) {
        return ByteBuffer.wrap(new byte[]{(byte) (b ? 1 : 0)});
    }

    public static ByteBuffer textSet(Collection<String> values) {
        List<byte[]> encoded = new ArrayList<>();
        int size = 4;
        for (String v : values) {
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            encoded.add(b);
            size += 4 + b.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(encoded.size());
        for (byte[] b : encoded) {
            out.putInt(b.length).put(b);
        }
        return out.flip();
    }

    public static String asText(ByteBuffer b) {
        return b == null ? null : StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    public static boolean asBool(ByteBuffer b) {
        return b != null && b.remaining() > 0 && b.get(b.position()) != 0;
    }

    public static Set<String> asTextSet(ByteBuffer b) {
        Set<String> out = new LinkedHashSet<>();
        if (b == null || b.remaining() < 4) {
            return out;
        }
        ByteBuffer d = b.duplicate();
        int n = d.getInt();
        for (int i = 0; i < n; i++) {
            int len = d.getInt();
            byte[] v = new byte[len];
            d.get(v);
            out.add(new String(v, StandardCharsets.UTF_8));
        }
        return out;
    }
}
