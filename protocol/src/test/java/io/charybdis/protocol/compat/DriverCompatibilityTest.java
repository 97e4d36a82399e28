package io.charybdis.protocol.compat;

import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.internal.core.protocol.ByteBufPrimitiveCodec;
import com.datastax.oss.driver.internal.core.protocol.Lz4Compressor;
import com.datastax.oss.protocol.internal.Compressor;
import com.datastax.oss.protocol.internal.Frame;
import com.datastax.oss.protocol.internal.FrameCodec;
import com.datastax.oss.protocol.internal.Message;
import com.datastax.oss.protocol.internal.Segment;
import com.datastax.oss.protocol.internal.SegmentCodec;
import com.datastax.oss.protocol.internal.request.Batch;
import com.datastax.oss.protocol.internal.request.Execute;
import com.datastax.oss.protocol.internal.request.Prepare;
import com.datastax.oss.protocol.internal.request.Query;
import com.datastax.oss.protocol.internal.request.Startup;
import com.datastax.oss.protocol.internal.response.error.ReadFailure;
import com.datastax.oss.protocol.internal.response.error.Unavailable;
import com.datastax.oss.protocol.internal.response.error.WriteTimeout;
import com.datastax.oss.protocol.internal.response.event.TopologyChangeEvent;
import com.datastax.oss.protocol.internal.response.result.Prepared;
import com.datastax.oss.protocol.internal.response.result.RawType;
import com.datastax.oss.protocol.internal.response.result.Rows;
import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.frame.EnvelopeDecoder;
import io.charybdis.protocol.frame.EnvelopeEncoder;
import io.charybdis.protocol.frame.FrameDecoder;
import io.charybdis.protocol.frame.FrameEncoder;
import io.charybdis.protocol.request.BatchChild;
import io.charybdis.protocol.request.BatchType;
import io.charybdis.protocol.request.QueryOptions;
import io.charybdis.protocol.request.Request;
import io.charybdis.protocol.request.Requests;
import io.charybdis.protocol.response.ColumnSpec;
import io.charybdis.protocol.response.Event;
import io.charybdis.protocol.response.PreparedMetadata;
import io.charybdis.protocol.response.ResultMetadata;
import io.charybdis.protocol.response.Responses;
import io.charybdis.protocol.response.RowsWriter;
import io.charybdis.protocol.response.WriteType;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.UserType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Apache Cassandra Java driver's own protocol codecs (native-protocol + driver-core) read what we write, and
 * we read what they write: envelopes v4 (plain and LZ4), v5 segments (plain and LZ4), every request, the
 * responses a driver depends on.
 */
class DriverCompatibilityTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
    private static final ByteBufPrimitiveCodec PRIMITIVES = new ByteBufPrimitiveCodec(ALLOC);
    private static final Compressor<ByteBuf> LZ4 = new Lz4Compressor((DriverContext) Proxy.newProxyInstance(
            DriverContext.class.getClassLoader(), new Class<?>[] {DriverContext.class},
            (p, m, a) -> m.getReturnType() == String.class ? "test" : null));

    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void close() {
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private EmbeddedChannel channel(io.netty.channel.ChannelHandler h) {
        EmbeddedChannel c = new EmbeddedChannel(h);
        channels.add(c);
        return c;
    }

    /** Encodes a request with the driver, decodes it with our v4-layout decoder and request decoder. */
    private Request driverToUs(int version, Message message, boolean lz4) {
        FrameCodec<ByteBuf> client = FrameCodec.defaultClient(PRIMITIVES, lz4 ? LZ4 : Compressor.none());
        ByteBuf wire = client.encode(Frame.forRequest(version, 12, false, Frame.NO_PAYLOAD, message));
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        if (lz4) {
            decoder.enableLz4();
        }
        EmbeddedChannel c = channel(decoder);
        c.writeInbound(wire);
        Envelope env = c.readInbound();
        try {
            assertThat(env.streamId()).isEqualTo((short) 12);
            return Requests.decode(env);
        } finally {
            env.release();
        }
    }

    /** Encodes a response with our encoder, decodes it with the driver. */
    private Frame usToDriver(Envelope env, boolean lz4) {
        EnvelopeEncoder encoder = new EnvelopeEncoder();
        if (lz4) {
            encoder.enableLz4();
        }
        EmbeddedChannel c = channel(encoder);
        c.writeOutbound(env);
        ByteBuf wire = c.readOutbound();
        try {
            return FrameCodec.defaultClient(PRIMITIVES, lz4 ? LZ4 : Compressor.none()).decode(wire);
        } finally {
            wire.release();
        }
    }

    private static com.datastax.oss.protocol.internal.request.query.QueryOptions driverOptions(String keyspace,
                                                                                               int now) {
        return new com.datastax.oss.protocol.internal.request.query.QueryOptions(4,
                Arrays.asList(ByteBuffer.wrap(new byte[] {0, 0, 0, 1}), null), Map.of(), true, 100,
                ByteBuffer.wrap(new byte[] {5, 5}), 9, 1234L, keyspace, now);
    }

    @Test
    void shouldDecodeDriverRequestsInV4WithAndWithoutLz4() {
        for (boolean lz4 : new boolean[] {false, true}) {
            Request.Startup startup = (Request.Startup) driverToUs(4, new Startup("lz4"), false);
            assertThat(startup.options()).containsEntry("CQL_VERSION", "3.0.0").containsEntry("COMPRESSION", "lz4");
            Request.Query q = (Request.Query) driverToUs(4, new Query("SELECT * FROM t WHERE k = ?".repeat(10),
                    driverOptions(null, Integer.MIN_VALUE)), lz4);
            assertThat(q.query()).startsWith("SELECT * FROM t");
            QueryOptions o = q.options();
            assertThat(o.consistency()).isEqualTo(Consistency.QUORUM);
            assertThat(o.values()).containsExactly(ByteBuffer.wrap(new byte[] {0, 0, 0, 1}), null);
            assertThat(o.skipMetadata()).isTrue();
            assertThat(o.pageSize()).isEqualTo(100);
            assertThat(o.pagingState()).containsExactly(5, 5);
            assertThat(o.serialConsistency()).isEqualTo(Consistency.LOCAL_SERIAL);
            assertThat(o.defaultTimestamp()).isEqualTo(1234L);
        }
    }

    @Test
    void shouldDecodeDriverRequestsInV5() {
        Request.Query q = (Request.Query) driverToUs(5, new Query("SELECT 1", driverOptions("ks", 77)), false);
        assertThat(q.options().keyspace()).isEqualTo("ks");
        assertThat(q.options().nowInSeconds()).isEqualTo(77);
        Request.Prepare p = (Request.Prepare) driverToUs(5, new Prepare("SELECT 2", "ks2"), false);
        assertThat(p).isEqualTo(new Request.Prepare("SELECT 2", "ks2"));
        Request.Execute e = (Request.Execute) driverToUs(5, new Execute(new byte[] {1, 2}, new byte[] {3},
                driverOptions(null, Integer.MIN_VALUE)), false);
        assertThat(e.statementId()).containsExactly(1, 2);
        assertThat(e.resultMetadataId()).containsExactly(3);
        assertThat(e.options().pageSize()).isEqualTo(100);
        Request.Batch b = (Request.Batch) driverToUs(5, new Batch((byte) 1,
                List.of("INSERT INTO t (k) VALUES (?)", new byte[] {9}),
                List.of(List.of(ByteBuffer.wrap(new byte[] {1})), List.of()), 1, 9, 99L, "ks", 5), false);
        assertThat(b.type()).isEqualTo(BatchType.UNLOGGED);
        assertThat(b.children().get(0)).isInstanceOf(BatchChild.QueryChild.class);
        assertThat(((BatchChild.PreparedChild) b.children().get(1)).statementId()).containsExactly(9);
        assertThat(b.serialConsistency()).isEqualTo(Consistency.LOCAL_SERIAL);
        assertThat(b.defaultTimestamp()).isEqualTo(99L);
        assertThat(b.keyspace()).isEqualTo("ks");
        assertThat(b.nowInSeconds()).isEqualTo(5);
    }

    @Test
    void shouldBeReadableByDriverForRowsResults() {
        UserType udt = new UserType("ks", "addr", List.of("street"), List.of(DataType.TEXT), true);
        ResultMetadata md = ResultMetadata.of(List.of(new ColumnSpec("ks", "t", "k", DataType.INT),
                new ColumnSpec("ks", "t", "m", DataType.map(DataType.TEXT, DataType.list(DataType.BIGINT).freeze())),
                new ColumnSpec("ks", "t", "u", udt),
                new ColumnSpec("ks", "t", "v", DataType.vector(DataType.FLOAT, 2)),
                new ColumnSpec("ks", "t", "d", DataType.DURATION)));
        for (ProtocolVersion v : ProtocolVersion.values()) {
            for (boolean lz4 : new boolean[] {false, true}) {
                if (lz4 && v == ProtocolVersion.V5) {
                    continue;
                }
                RowsWriter w = new RowsWriter(ALLOC, v).begin(md, false, null, null);
                for (int i = 0; i < 3; i++) {
                    w.value(DataType.INT.decompose(i)).nullValue().nullValue().nullValue().nullValue();
                }
                w.pagingState(new byte[] {4, 2});
                Frame f = usToDriver(Responses.to(ALLOC, v, 3).warnings(List.of("careful")).rows(w), lz4);
                assertThat(f.protocolVersion).isEqualTo(v.code());
                // v3 has no warnings: they are not sent (as Cassandra does not)
                assertThat(f.warnings).isEqualTo(v == ProtocolVersion.V3 ? List.of() : List.of("careful"));
                Rows rows = (Rows) f.message;
                assertThat(rows.getMetadata().columnSpecs).extracting(c -> c.name).containsExactly("k", "m", "u", "v",
                        "d");
                assertThat(rows.getMetadata().columnSpecs.get(0).type.id).isEqualTo(0x09);
                assertThat(rows.getMetadata().columnSpecs.get(1).type.id).isEqualTo(0x21);
                assertThat(rows.getMetadata().columnSpecs.get(2).type).isInstanceOf(RawType.RawUdt.class);
                assertThat(rows.getMetadata().columnSpecs.get(3).type).isInstanceOf(RawType.RawCustom.class);
                assertThat(rows.getMetadata().columnSpecs.get(4).type.id).isEqualTo(v == ProtocolVersion.V5 ? 0x15 : 0);
                assertThat(rows.getMetadata().pagingState).isEqualTo(ByteBuffer.wrap(new byte[] {4, 2}));
                assertThat(rows.getData()).hasSize(3);
                assertThat(rows.getData().peek().get(0)).isEqualTo(DataType.INT.decompose(0));
            }
        }
    }

    @Test
    void shouldBeReadableByDriverForPreparedErrorsAndEvents() throws Exception {
        PreparedMetadata pm = PreparedMetadata.of(List.of(new ColumnSpec("ks", "t", "k", DataType.TEXT)), List.of(0));
        ResultMetadata rm = ResultMetadata.of(List.of(new ColumnSpec("ks", "t", "v", DataType.BLOB)));
        Prepared p = (Prepared) usToDriver(Responses.to(ALLOC, ProtocolVersion.V5, 1)
                .prepared(new byte[] {1, 2, 3}, new byte[] {7}, pm, rm), false).message;
        assertThat(p.preparedQueryId).containsExactly(1, 2, 3);
        assertThat(p.resultMetadataId).containsExactly(7);
        assertThat(p.variablesMetadata.pkIndices).containsExactly(0);
        assertThat(p.resultMetadata.columnSpecs.get(0).name).isEqualTo("v");

        Unavailable u = (Unavailable) usToDriver(Responses.to(ALLOC, ProtocolVersion.V4, 1)
                .unavailable("no", Consistency.QUORUM, 2, 1), false).message;
        assertThat(u.required).isEqualTo(2);
        assertThat(u.alive).isEqualTo(1);
        WriteTimeout wt = (WriteTimeout) usToDriver(Responses.to(ALLOC, ProtocolVersion.V5, 1)
                .writeTimeout("wt", Consistency.ONE, 0, 1, WriteType.BATCH_LOG, 0), false).message;
        assertThat(wt.writeType).isEqualTo("BATCH_LOG");
        ReadFailure rf = (ReadFailure) usToDriver(Responses.to(ALLOC, ProtocolVersion.V5, 1)
                .readFailure("rf", Consistency.ONE, 0, 1, Map.of(InetAddress.getByName("10.0.0.9"), 1), true),
                false).message;
        assertThat(rf.reasonMap).containsEntry(InetAddress.getByName("10.0.0.9"), 1);
        assertThat(rf.dataPresent).isTrue();

        UUID tracing = UUID.randomUUID();
        Frame tf = usToDriver(Responses.to(ALLOC, ProtocolVersion.V4, 2).tracing(tracing).voidResult(), false);
        assertThat(tf.tracingId).isEqualTo(tracing);

        TopologyChangeEvent ev = (TopologyChangeEvent) usToDriver(Responses.event(ALLOC, ProtocolVersion.V4,
                new Event.TopologyChange(Event.TopologyChangeType.NEW_NODE,
                        new InetSocketAddress(InetAddress.getByName("10.1.1.1"), 9042))), false).message;
        assertThat(ev.changeType).isEqualTo("NEW_NODE");
        assertThat(ev.address.getPort()).isEqualTo(9042);
    }

    @Test
    void shouldExchangeV5SegmentsWithDriverInBothDirections() throws Exception {
        for (boolean lz4 : new boolean[] {false, true}) {
            SegmentCodec<ByteBuf> segments = new SegmentCodec<>(PRIMITIVES, lz4 ? LZ4 : Compressor.none());
            FrameCodec<ByteBuf> client = FrameCodec.defaultClient(PRIMITIVES, Compressor.none());
            // driver → us: two requests in one self-contained segment
            ByteBuf payload = ALLOC.buffer();
            for (ByteBuf request : List.of(
                    client.encode(Frame.forRequest(5, 1, false, Frame.NO_PAYLOAD, new Query("SELECT 1".repeat(50)))),
                    client.encode(Frame.forRequest(5, 2, false, Frame.NO_PAYLOAD, new Prepare("SELECT 2"))))) {
                payload.writeBytes(request);
                request.release();
            }
            List<Object> out = new ArrayList<>();
            segments.encode(new Segment<>(payload, true), out);
            EmbeddedChannel server = channel(new FrameDecoder(lz4));
            for (Object o : out) {
                server.writeInbound(o);
            }
            Envelope q = server.readInbound();
            Envelope p = server.readInbound();
            assertThat(((Request.Query) Requests.decode(q)).query()).startsWith("SELECT 1");
            assertThat(Requests.decode(p)).isEqualTo(new Request.Prepare("SELECT 2", null));
            q.release();
            p.release();

            // us → driver: a response large enough to be split over several segments
            EmbeddedChannel encoder = channel(new FrameEncoder(lz4));
            byte[] big = new byte[300_000];
            Arrays.fill(big, (byte) 'x');
            RowsWriter w = new RowsWriter(ALLOC, ProtocolVersion.V5).begin(
                    ResultMetadata.of(List.of(new ColumnSpec("ks", "t", "b", DataType.BLOB))), false, null, null);
            w.value(ByteBuffer.wrap(big));
            encoder.writeAndFlush(Responses.to(ALLOC, ProtocolVersion.V5, 4).rows(w));
            ByteBuf reassembled = ALLOC.buffer();
            int frames = 0;
            for (ByteBuf f; (f = encoder.readOutbound()) != null; frames++) {
                SegmentCodec.Header h = segments.decodeHeader(f);
                Segment<ByteBuf> s = segments.decode(h, f);
                assertThat(s.isSelfContained).isFalse();
                reassembled.writeBytes(s.payload);
                s.payload.release(); // the driver's decode releases the frame itself
            }
            assertThat(frames).isEqualTo(3);
            Rows rows = (Rows) client.decode(reassembled).message;
            assertThat(rows.getData().peek().get(0).remaining()).isEqualTo(big.length);
            reassembled.release();
        }
    }
}
