package io.charybdis.protocol.frame;

import io.charybdis.protocol.CrcMismatchException;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.EnvelopeHeader;
import io.charybdis.protocol.EnvelopeTooLargeException;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.TestBuffers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameCodecTest {
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void close() {
        for (EmbeddedChannel c : channels) {
            c.finishAndReleaseAll();
        }
    }

    private EmbeddedChannel channel(Object... handlers) {
        EmbeddedChannel c = new EmbeddedChannel();
        for (Object h : handlers) {
            c.pipeline().addLast((io.netty.channel.ChannelHandler) h);
        }
        channels.add(c);
        return c;
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] compressible(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ("abcdefgh".charAt(i % 8) + (i / 4096));
        }
        return b;
    }

    /** A request envelope (as a client writes it) as raw bytes. */
    private static byte[] request(int stream, Opcode op, byte[] body) {
        return TestBuffers.bytes(TestBuffers.envelope(0x05, 0, stream, op.code(), body));
    }

    private static ByteBuf frame(byte[] payload, boolean selfContained, boolean lz4) {
        ByteBuf p = Unpooled.wrappedBuffer(payload);
        return FrameEncoder.encodeFrame(UnpooledByteBufAllocator.DEFAULT, p, 0, payload.length, selfContained, lz4);
    }

    private static List<ByteBuf> drainOutbound(EmbeddedChannel c) {
        List<ByteBuf> out = new ArrayList<>();
        for (ByteBuf b; (b = c.readOutbound()) != null; ) {
            out.add(b);
        }
        return out;
    }

    private static List<Envelope> drainInbound(EmbeddedChannel c) {
        List<Envelope> out = new ArrayList<>();
        for (Envelope e; (e = c.readInbound()) != null; ) {
            out.add(e);
        }
        return out;
    }

    @Test
    void shouldMatchHeaderLayoutOfAnIndependentImplementation() {
        // python driver: 50-byte self-contained payload → header 32 00 02 a5 ff ee
        ByteBuf f = frame("b".repeat(50).getBytes(), true, false);
        assertThat(ByteBufUtil.hexDump(f, 0, 6)).isEqualTo("320002a5ffee");
        assertThat(ByteBufUtil.hexDump(f, f.readableBytes() - 4, 4)).isEqualTo("7aaeeb7c");
        assertThat(f.readableBytes()).isEqualTo(6 + 50 + 4);
        f.release();
    }

    @Test
    void shouldDecodeSelfContainedFrameWithSeveralEnvelopes() {
        EmbeddedChannel c = channel(new FrameDecoder(false));
        byte[] payload = TestBuffers.concat(request(1, Opcode.OPTIONS, new byte[0]),
                request(2, Opcode.QUERY, "abc".getBytes()), request(3, Opcode.REGISTER, new byte[] {0, 0}));
        c.writeInbound(frame(payload, true, false));
        List<Envelope> in = drainInbound(c);
        assertThat(in).extracting(Envelope::streamId).containsExactly((short) 1, (short) 2, (short) 3);
        assertThat(in).extracting(Envelope::opcode).containsExactly(Opcode.OPTIONS, Opcode.QUERY, Opcode.REGISTER);
        assertThat(in).allMatch(e -> e.version() == ProtocolVersion.V5);
        assertThat(in.get(1).body().toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("abc");
        in.forEach(Envelope::release);
    }

    @Test
    void shouldReassembleLargeEnvelopeSplitAcrossFrames() {
        for (boolean lz4 : new boolean[] {false, true}) {
            EmbeddedChannel c = channel(new FrameDecoder(lz4));
            byte[] body = lz4 ? compressible(300_000) : randomBytes(300_000, 1);
            byte[] whole = request(77, Opcode.QUERY, body);
            int max = FrameLayout.MAX_PAYLOAD_LENGTH;
            for (int off = 0; off < whole.length; off += max) {
                int n = Math.min(max, whole.length - off);
                byte[] part = java.util.Arrays.copyOfRange(whole, off, off + n);
                c.writeInbound(frame(part, false, lz4));
                if (off + n < whole.length) {
                    assertThat((Object) c.readInbound()).isNull();
                }
            }
            Envelope e = c.readInbound();
            assertThat(e.streamId()).isEqualTo((short) 77);
            assertThat(ByteBufUtil.getBytes(e.body())).isEqualTo(body);
            e.release();
        }
    }

    @Test
    void shouldRoundTripManySmallAndOneLargeEnvelopeThroughEncoderAndDecoder() {
        for (boolean lz4 : new boolean[] {false, true}) {
            EmbeddedChannel server = channel(new FrameEncoder(lz4));
            List<byte[]> bodies = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                byte[] b = lz4 ? compressible(5000 + i) : randomBytes(5000 + i, i);
                bodies.add(b);
                server.write(new Envelope(ProtocolVersion.V5, 0, i, Opcode.RESULT, Unpooled.wrappedBuffer(b)));
            }
            byte[] large = randomBytes(400_000, 99);
            bodies.add(large);
            server.write(new Envelope(ProtocolVersion.V5, 0, 50, Opcode.RESULT, Unpooled.wrappedBuffer(large)));
            server.flush();
            List<ByteBuf> frames = drainOutbound(server);
            // 50 * ~5 KB packed into 2 self-contained frames, then the pending one flushed before the large one
            assertThat(frames.size()).isBetween(5, 8);
            EmbeddedChannel client = channel(new FrameDecoder(lz4, 1 << 20, false));
            for (ByteBuf f : frames) {
                client.writeInbound(f);
            }
            List<Envelope> in = drainInbound(client);
            assertThat(in).hasSize(51);
            for (int i = 0; i < in.size(); i++) {
                assertThat(in.get(i).streamId()).isEqualTo((short) i);
                assertThat(ByteBufUtil.getBytes(in.get(i).body())).isEqualTo(bodies.get(i));
            }
            in.forEach(Envelope::release);
        }
    }

    @Test
    void shouldCompletePromisesWhenFramesAreWritten() {
        EmbeddedChannel server = channel(new FrameEncoder(false));
        var f1 = server.write(new Envelope(ProtocolVersion.V5, 0, 1, Opcode.READY, Unpooled.buffer(0)));
        var f2 = server.write(new Envelope(ProtocolVersion.V5, 0, 2, Opcode.READY, Unpooled.buffer(0)));
        assertThat(f1.isDone()).isFalse();
        server.flush();
        assertThat(f1.isSuccess()).isTrue();
        assertThat(f2.isSuccess()).isTrue();
        List<ByteBuf> frames = drainOutbound(server);
        assertThat(frames).hasSize(1);
        ByteBuf f = frames.get(0);
        assertThat(f.getUnsignedMediumLE(0) & FrameLayout.LENGTH_MASK).isEqualTo(18);
        assertThat(f.getByte(6)).isEqualTo((byte) 0x85);
        f.release();
    }

    @Test
    void shouldSendIncompressiblePayloadWithUncompressedLengthZero() {
        byte[] payload = request(1, Opcode.QUERY, randomBytes(1000, 5));
        ByteBuf f = frame(payload, true, true);
        long header5b = f.getLongLE(0) & 0xFF_FFFF_FFFFL;
        assertThat(header5b & FrameLayout.LENGTH_MASK).isEqualTo(payload.length);
        assertThat((header5b >>> 17) & FrameLayout.LENGTH_MASK).isZero();
        EmbeddedChannel c = channel(new FrameDecoder(true));
        c.writeInbound(f);
        Envelope e = c.readInbound();
        assertThat(ByteBufUtil.getBytes(e.body())).isEqualTo(java.util.Arrays.copyOfRange(payload, 9,
                payload.length));
        e.release();
    }

    @Test
    void shouldDecodeCompressedSelfContainedFrame() {
        byte[] payload = TestBuffers.concat(request(1, Opcode.QUERY, compressible(3000)),
                request(2, Opcode.QUERY, compressible(3000)));
        ByteBuf f = frame(payload, true, true);
        long header5b = f.getLongLE(0) & 0xFF_FFFF_FFFFL;
        assertThat((header5b >>> 17) & FrameLayout.LENGTH_MASK).isEqualTo(payload.length);
        assertThat(header5b & FrameLayout.LENGTH_MASK).isLessThan(payload.length);
        assertThat((header5b >>> 34) & 1).isEqualTo(1);
        EmbeddedChannel c = channel(new FrameDecoder(true));
        c.writeInbound(f);
        List<Envelope> in = drainInbound(c);
        assertThat(in).hasSize(2);
        in.forEach(Envelope::release);
    }

    @Test
    void shouldRejectCorruptedHeaderCrcAndDropTheConnection() {
        EmbeddedChannel c = channel(new FrameDecoder(false));
        ByteBuf f = frame(request(1, Opcode.OPTIONS, new byte[0]), true, false);
        f.setByte(4, f.getByte(4) ^ 0x01);
        assertThatThrownBy(() -> c.writeInbound(f))
                .isInstanceOfSatisfying(CrcMismatchException.class, e -> {
                    assertThat(e.isHeader()).isTrue();
                    assertThat(e.isFatal()).isTrue();
                });
        c.writeInbound(frame(request(2, Opcode.OPTIONS, new byte[0]), true, false));
        assertThat((Object) c.readInbound()).isNull();
    }

    @Test
    void shouldRejectCorruptedLengthInHeaderBeforeWaitingForPayload() {
        EmbeddedChannel c = channel(new FrameDecoder(true));
        ByteBuf f = frame(request(1, Opcode.OPTIONS, new byte[0]), true, true);
        f.setByte(1, f.getByte(1) ^ 0x40);
        assertThatThrownBy(() -> c.writeInbound(f)).isInstanceOf(CrcMismatchException.class);
    }

    @Test
    void shouldRejectCorruptedPayloadCrc() {
        for (boolean lz4 : new boolean[] {false, true}) {
            EmbeddedChannel c = channel(new FrameDecoder(lz4));
            ByteBuf f = frame(request(1, Opcode.QUERY, compressible(500)), true, lz4);
            int headerLength = FrameLayout.headerLength(lz4);
            f.setByte(headerLength + 3, f.getByte(headerLength + 3) ^ 0x10);
            assertThatThrownBy(() -> c.writeInbound(f))
                    .isInstanceOfSatisfying(CrcMismatchException.class, e -> assertThat(e.isHeader()).isFalse());
        }
    }

    @Test
    void shouldRejectSelfContainedFrameEndingInsideAnEnvelope() {
        EmbeddedChannel c = channel(new FrameDecoder(false));
        byte[] whole = request(1, Opcode.QUERY, new byte[100]);
        ByteBuf f = frame(java.util.Arrays.copyOf(whole, 50), true, false);
        assertThatThrownBy(() -> c.writeInbound(f))
                .isInstanceOfSatisfying(ProtocolException.class, e -> assertThat(e.isFatal()).isTrue())
                .hasMessageContaining("ends inside an envelope");
    }

    @Test
    void shouldRejectFrameWithCorruptLz4BlockDespiteGoodCrc() {
        EmbeddedChannel c = channel(new FrameDecoder(true));
        byte[] garbage = {(byte) 0xF0, 0x01, 0x02};
        ByteBuf f = Unpooled.buffer();
        long header5b = FrameLayout.header5b(garbage.length, 1000, true);
        f.writeLongLE(header5b | ((long) Crc24.compute(header5b, 5) << 40));
        f.writeBytes(garbage);
        f.writeIntLE(Crc32Seeded.compute(garbage, 0, garbage.length));
        assertThatThrownBy(() -> c.writeInbound(f))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("Corrupt LZ4");
    }

    @Test
    void shouldRejectOversizedEnvelopeInsideFramesAndSkipIt() {
        EmbeddedChannel c = channel(new FrameDecoder(false, 100, true));
        byte[] whole = request(5, Opcode.QUERY, new byte[200_000]);
        int max = FrameLayout.MAX_PAYLOAD_LENGTH;
        c.pipeline().fireChannelRead(frame(java.util.Arrays.copyOf(whole, max), false, false));
        assertThatThrownBy(c::checkException).isInstanceOfSatisfying(EnvelopeTooLargeException.class,
                e -> assertThat(e.streamId()).isEqualTo(5));
        c.writeInbound(frame(java.util.Arrays.copyOfRange(whole, max, whole.length), false, false));
        c.writeInbound(frame(request(6, Opcode.OPTIONS, new byte[0]), true, false));
        Envelope e = c.readInbound();
        assertThat(e.streamId()).isEqualTo((short) 6);
        e.release();
    }

    @Test
    void shouldRejectNonV5EnvelopeInsideFrameWithoutClosing() {
        EmbeddedChannel c = channel(new FrameDecoder(false));
        byte[] payload = TestBuffers.concat(TestBuffers.bytes(TestBuffers.envelope(0x04, 0, 8, 5, new byte[0])),
                request(9, Opcode.OPTIONS, new byte[0]));
        assertThatThrownBy(() -> c.writeInbound(frame(payload, true, false)))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.streamId()).isEqualTo(8);
                    assertThat(e.isFatal()).isFalse();
                });
        Envelope e = c.readInbound();
        assertThat(e.streamId()).isEqualTo((short) 9);
        e.release();
    }

    @Test
    void shouldSwitchPipelineToV5FramingAfterStartup() {
        List<Envelope> received = new ArrayList<>();
        EmbeddedChannel c = new EmbeddedChannel();
        channels.add(c);
        c.pipeline().addLast(EnvelopeDecoder.NAME, new EnvelopeDecoder(1 << 20));
        c.pipeline().addLast(EnvelopeEncoder.NAME, new EnvelopeEncoder());
        c.pipeline().addLast("handler", new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                Envelope env = (Envelope) msg;
                received.add(env);
                if (env.opcode() == Opcode.STARTUP) {
                    ctx.writeAndFlush(new Envelope(ProtocolVersion.V5, 0, env.streamId(), Opcode.READY,
                            Unpooled.EMPTY_BUFFER));
                    V5Framing.install(ctx.pipeline(), false);
                }
            }
        });
        // STARTUP in the legacy layout, immediately followed (same read) by a framed OPTIONS
        ByteBuf framed = frame(request(2, Opcode.OPTIONS, new byte[0]), true, false);
        byte[] wire = TestBuffers.concat(request(1, Opcode.STARTUP, new byte[] {0, 0}), TestBuffers.bytes(framed));
        c.writeInbound(Unpooled.wrappedBuffer(wire));
        assertThat(received).extracting(Envelope::opcode).containsExactly(Opcode.STARTUP, Opcode.OPTIONS);
        assertThat(c.pipeline().names()).contains(FrameDecoder.NAME, FrameEncoder.NAME)
                .doesNotContain(EnvelopeDecoder.NAME, EnvelopeEncoder.NAME);
        ByteBuf ready = c.readOutbound();
        assertThat(ByteBufUtil.hexDump(ready)).isEqualTo("850000010200000000");
        ready.release();
        c.writeAndFlush(new Envelope(ProtocolVersion.V5, 0, 2, Opcode.SUPPORTED, Unpooled.buffer(2).writeShort(0)));
        ByteBuf supported = c.readOutbound();
        assertThat(supported.readableBytes()).isEqualTo(6 + EnvelopeHeader.LENGTH + 2 + 4);
        assertThat(supported.getUnsignedMediumLE(0)).isEqualTo(FrameLayout.header3b(11, true));
        supported.release();
        received.forEach(Envelope::release);
    }
}
