package io.charybdis.protocol.frame;

import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.EnvelopeTooLargeException;
import io.charybdis.protocol.ErrorCode;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.ProtocolVersionException;
import io.charybdis.protocol.TestBuffers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.charybdis.protocol.TestBuffers.envelope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnvelopeCodecTest {
    private EmbeddedChannel channel;

    @AfterEach
    void close() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldDecodeEnvelopeSplitAcrossReads() {
        channel = new EmbeddedChannel(new EnvelopeDecoder());
        byte[] wire = TestBuffers.bytes(envelope(0x04, 0x02, 7, Opcode.QUERY.code(), text("hello")));
        for (byte b : wire) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        Envelope env = channel.readInbound();
        try {
            assertThat(env.version()).isEqualTo(ProtocolVersion.V4);
            assertThat(env.flags()).isEqualTo(Envelope.TRACING);
            assertThat(env.streamId()).isEqualTo((short) 7);
            assertThat(env.opcode()).isEqualTo(Opcode.QUERY);
            assertThat(env.body().toString(StandardCharsets.UTF_8)).isEqualTo("hello");
        } finally {
            env.release();
        }
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void shouldDecodeSeveralEnvelopesFromOneRead() {
        channel = new EmbeddedChannel(new EnvelopeDecoder());
        byte[] wire = TestBuffers.concat(
                TestBuffers.bytes(envelope(0x04, 0, 1, Opcode.OPTIONS.code(), new byte[0])),
                TestBuffers.bytes(envelope(0x04, 0, 2, Opcode.QUERY.code(), text("q"))));
        channel.writeInbound(Unpooled.wrappedBuffer(wire));
        Envelope a = channel.readInbound();
        Envelope b = channel.readInbound();
        assertThat(a.streamId()).isEqualTo((short) 1);
        assertThat(a.body().readableBytes()).isZero();
        assertThat(b.streamId()).isEqualTo((short) 2);
        a.release();
        b.release();
    }

    @Test
    void shouldRoundTripResponseThroughEncoderAndClientDecoder() {
        EmbeddedChannel server = new EmbeddedChannel(new EnvelopeEncoder());
        Envelope out = new Envelope(ProtocolVersion.V4, Envelope.WARNING, 42, Opcode.RESULT,
                Unpooled.copiedBuffer(text("body")));
        server.writeOutbound(out);
        ByteBuf wire = server.readOutbound();
        assertThat(wire.getUnsignedByte(0)).isEqualTo((short) 0x84);
        assertThat(out.refCnt()).isZero();
        channel = new EmbeddedChannel(new EnvelopeDecoder(1024, false));
        channel.writeInbound(wire);
        Envelope in = channel.readInbound();
        assertThat(in.opcode()).isEqualTo(Opcode.RESULT);
        assertThat(in.flags()).isEqualTo(Envelope.WARNING);
        assertThat(in.streamId()).isEqualTo((short) 42);
        assertThat(in.body().toString(StandardCharsets.UTF_8)).isEqualTo("body");
        in.release();
        server.finishAndReleaseAll();
    }

    @Test
    void shouldRoundTripLz4CompressedBodies() {
        EnvelopeEncoder encoder = new EnvelopeEncoder(false);
        encoder.enableLz4();
        EmbeddedChannel client = new EmbeddedChannel(encoder);
        byte[] body = text("SELECT * FROM ks.t WHERE k = 1 ".repeat(20));
        client.writeOutbound(new Envelope(ProtocolVersion.V4, 0, 3, Opcode.QUERY, Unpooled.wrappedBuffer(body)));
        ByteBuf wire = client.readOutbound();
        assertThat(wire.getByte(1) & Envelope.COMPRESSED).isEqualTo(Envelope.COMPRESSED);
        assertThat(wire.getInt(5)).isLessThan(body.length);
        assertThat(wire.getInt(9)).isEqualTo(body.length);
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        decoder.enableLz4();
        channel = new EmbeddedChannel(decoder);
        channel.writeInbound(wire);
        Envelope in = channel.readInbound();
        assertThat(in.flags() & Envelope.COMPRESSED).isZero();
        assertThat(ByteBufUtil.getBytes(in.body())).isEqualTo(body);
        in.release();
        client.finishAndReleaseAll();
    }

    @Test
    void shouldDecompressBodyCompressedByAnotherLz4Writer() {
        byte[] body = text("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
        byte[] block = LZ4Factory.safeInstance().highCompressor().compress(body);
        ByteBuf compressed = Unpooled.buffer().writeInt(body.length).writeBytes(block);
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        decoder.enableLz4();
        channel = new EmbeddedChannel(decoder);
        channel.writeInbound(envelope(0x04, Envelope.COMPRESSED, 5, Opcode.QUERY.code(),
                TestBuffers.bytes(compressed)));
        Envelope in = channel.readInbound();
        assertThat(ByteBufUtil.getBytes(in.body())).isEqualTo(body);
        in.release();
    }

    @Test
    void shouldRejectCorruptLz4BodyWithProtocolExceptionAndKeepDecoding() {
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        decoder.enableLz4();
        channel = new EmbeddedChannel(decoder);
        byte[] corrupt = TestBuffers.body().int_(1000).raw(new byte[] {(byte) 0xF0, 1, 2, 3, 4, 5}).build();
        byte[] wire = TestBuffers.concat(
                TestBuffers.bytes(envelope(0x04, Envelope.COMPRESSED, 9, Opcode.QUERY.code(), corrupt)),
                TestBuffers.bytes(envelope(0x04, 0, 10, Opcode.OPTIONS.code(), new byte[0])));
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(wire)))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("LZ4")
                .satisfies(e -> assertThat(((ProtocolException) e).streamId()).isEqualTo(9))
                .satisfies(e -> assertThat(((ProtocolException) e).isFatal()).isFalse());
        Envelope next = channel.readInbound();
        assertThat(next.streamId()).isEqualTo((short) 10);
        next.release();
    }

    @Test
    void shouldRejectUncompressedLengthAboveMaximumInLz4Body() {
        EnvelopeDecoder decoder = new EnvelopeDecoder(1000);
        decoder.enableLz4();
        channel = new EmbeddedChannel(decoder);
        byte[] body = TestBuffers.body().int_(Integer.MAX_VALUE).raw(new byte[] {0}).build();
        assertThatThrownBy(() -> channel.writeInbound(envelope(0x04, Envelope.COMPRESSED, 1, 7, body)))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("uncompressed length");
    }

    @Test
    void shouldRejectCompressedEnvelopeWhenNoCompressionNegotiated() {
        channel = new EmbeddedChannel(new EnvelopeDecoder());
        assertThatThrownBy(() -> channel.writeInbound(envelope(0x04, Envelope.COMPRESSED, 3, 7, new byte[8])))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("no compression was negotiated");
    }

    @Test
    void shouldRejectUnsupportedVersionWithStreamId() {
        channel = new EmbeddedChannel(new EnvelopeDecoder());
        assertThatThrownBy(() -> channel.writeInbound(envelope(0x06, 0, 0x1234, Opcode.STARTUP.code(), new byte[2])))
                .isInstanceOfSatisfying(ProtocolVersionException.class, e -> {
                    assertThat(e.requestedVersion()).isEqualTo(6);
                    assertThat(e.streamId()).isEqualTo(0x1234);
                    assertThat(e.isFatal()).isTrue();
                    assertThat(e.responseVersionCode()).isEqualTo(5);
                    assertThat(e.getMessage()).isEqualTo("Invalid or unsupported protocol version (6); supported "
                            + "versions are (3/v3, 4/v4, 5/v5)");
                });
        // everything after is dropped
        channel.writeInbound(envelope(0x04, 0, 1, Opcode.OPTIONS.code(), new byte[0]));
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void shouldAnswerOldVersionInTheClientsOwnHeaderLayout() {
        channel = new EmbeddedChannel(new EnvelopeDecoder());
        // protocol v2: 8-byte header with a one-byte stream id
        ByteBuf v2 = Unpooled.buffer().writeByte(0x02).writeByte(0).writeByte(9).writeByte(Opcode.STARTUP.code())
                .writeInt(0);
        ProtocolVersionException e = null;
        try {
            channel.writeInbound(v2);
        } catch (ProtocolVersionException thrown) {
            e = thrown;
        }
        assertThat(e).isNotNull();
        assertThat(e.streamId()).isEqualTo(9);
        assertThat(e.responseVersionCode()).isEqualTo(2);
        ByteBuf reply = e.encodeErrorResponse(UnpooledByteBufAllocator.DEFAULT);
        try {
            assertThat(reply.readUnsignedByte()).isEqualTo((short) 0x82);
            assertThat(reply.readByte()).isZero();
            assertThat(reply.readByte()).isEqualTo((byte) 9);
            assertThat(reply.readByte()).isEqualTo((byte) Opcode.ERROR.code());
            int length = reply.readInt();
            assertThat(length).isEqualTo(reply.readableBytes());
            assertThat(reply.readInt()).isEqualTo(ErrorCode.PROTOCOL_ERROR.code());
            int n = reply.readUnsignedShort();
            assertThat(reply.readCharSequence(n, StandardCharsets.UTF_8).toString())
                    .startsWith("Invalid or unsupported protocol version (2)");
        } finally {
            reply.release();
        }
    }

    @Test
    void shouldRejectBodyLongerThanMaximumAndSkipIt() {
        channel = new EmbeddedChannel(new EnvelopeDecoder(16));
        byte[] wire = TestBuffers.concat(
                TestBuffers.bytes(envelope(0x04, 0, 11, Opcode.QUERY.code(), new byte[40])),
                TestBuffers.bytes(envelope(0x04, 0, 12, Opcode.OPTIONS.code(), new byte[0])));
        // the oversized body arrives in two pieces
        channel.pipeline().fireChannelRead(Unpooled.wrappedBuffer(wire, 0, 20));
        assertThatThrownBy(() -> channel.checkException())
                .isInstanceOfSatisfying(EnvelopeTooLargeException.class, e -> {
                    assertThat(e.streamId()).isEqualTo(11);
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID);
                    assertThat(e.isFatal()).isFalse();
                    assertThat(e.getMessage()).isEqualTo(
                            "Request is too big: length 40 exceeds maximum allowed length 16.");
                });
        channel.writeInbound(Unpooled.wrappedBuffer(wire, 20, wire.length - 20));
        Envelope next = channel.readInbound();
        assertThat(next.streamId()).isEqualTo((short) 12);
        next.release();
    }

    @Test
    void shouldRejectUnknownOpcodeAndKeepDecoding() {
        channel = new EmbeddedChannel(new EnvelopeDecoder());
        byte[] wire = TestBuffers.concat(TestBuffers.bytes(envelope(0x04, 0, 3, 0x04, new byte[3])),
                TestBuffers.bytes(envelope(0x04, 0, 4, Opcode.OPTIONS.code(), new byte[0])));
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(wire)))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("Unknown opcode 4");
        Envelope next = channel.readInbound();
        assertThat(next.opcode()).isEqualTo(Opcode.OPTIONS);
        next.release();
    }

    @Test
    void shouldRejectResponseDirectionOnServer() {
        channel = new EmbeddedChannel(new EnvelopeDecoder());
        assertThatThrownBy(() -> channel.writeInbound(envelope(0x84, 0, 1, Opcode.QUERY.code(), new byte[0])))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("Wrong protocol direction (expected REQUEST, got RESPONSE)");
        assertThatThrownBy(() -> channel.writeInbound(envelope(0x04, 0, 1, Opcode.RESULT.code(), new byte[0])))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("Wrong protocol direction");
    }

    @Test
    void shouldRejectVersionChangeOnConnection() {
        channel = new EmbeddedChannel(new EnvelopeDecoder());
        channel.writeInbound(envelope(0x04, 0, 1, Opcode.OPTIONS.code(), new byte[0]));
        ((Envelope) channel.readInbound()).release();
        assertThatThrownBy(() -> channel.writeInbound(envelope(0x05, 0, 2, Opcode.OPTIONS.code(), new byte[0])))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("Invalid message version. Got 5 but previous messages on this connection had version 4");
    }

    @Test
    void shouldNotCompressV5EnvelopesOrEmptyBodies() {
        EnvelopeEncoder encoder = new EnvelopeEncoder();
        encoder.enableLz4();
        EmbeddedChannel server = new EmbeddedChannel(encoder);
        server.writeOutbound(new Envelope(ProtocolVersion.V5, Envelope.COMPRESSED, 1, Opcode.READY,
                Unpooled.EMPTY_BUFFER));
        server.writeOutbound(new Envelope(ProtocolVersion.V4, 0, 2, Opcode.READY, Unpooled.EMPTY_BUFFER));
        ByteBuf a = server.readOutbound();
        ByteBuf b = server.readOutbound();
        assertThat(ByteBufUtil.hexDump(a)).isEqualTo("850000010200000000");
        assertThat(ByteBufUtil.hexDump(b)).isEqualTo("840000020200000000");
        a.release();
        b.release();
        server.finishAndReleaseAll();
    }
}
