package io.charybdis.protocol.types;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VIntTest {

    @Test
    void shouldEncodeSpecExample() {
        ByteBuf b = Unpooled.buffer();
        VInt.writeUnsigned(b, 256_000);
        assertThat(ByteBufUtil.hexDump(b)).isEqualTo("c3e800");
        b.release();
    }

    @Test
    void shouldZigZagAsSpecified() {
        assertThat(VInt.zigZagEncode(0)).isZero();
        assertThat(VInt.zigZagEncode(-1)).isEqualTo(1);
        assertThat(VInt.zigZagEncode(1)).isEqualTo(2);
        assertThat(VInt.zigZagEncode(-2)).isEqualTo(3);
        assertThat(VInt.zigZagEncode(Long.MIN_VALUE)).isEqualTo(-1L);
        assertThat(VInt.zigZagDecode(VInt.zigZagEncode(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void shouldUseOneToNineBytes() {
        assertThat(VInt.unsignedSize(0)).isEqualTo(1);
        assertThat(VInt.unsignedSize(127)).isEqualTo(1);
        assertThat(VInt.unsignedSize(128)).isEqualTo(2);
        assertThat(VInt.unsignedSize((1L << 14) - 1)).isEqualTo(2);
        assertThat(VInt.unsignedSize(1L << 14)).isEqualTo(3);
        assertThat(VInt.unsignedSize((1L << 56) - 1)).isEqualTo(8);
        assertThat(VInt.unsignedSize(1L << 56)).isEqualTo(9);
        assertThat(VInt.unsignedSize(-1L)).isEqualTo(9);
    }

    @Test
    void shouldRoundTripBoundaryValuesThroughByteBufAndByteBuffer() {
        long[] values = {0, 1, 63, 64, 127, 128, 255, 16383, 16384, 1L << 21, (1L << 28) - 1, 1L << 35,
                (1L << 49) + 5, (1L << 56) - 1, 1L << 56, Long.MAX_VALUE, -1L, Long.MIN_VALUE, -12345};
        for (long v : values) {
            ByteBuf b = Unpooled.buffer();
            VInt.writeUnsigned(b, v);
            assertThat(b.readableBytes()).isEqualTo(VInt.unsignedSize(v));
            assertThat(VInt.readUnsigned(b)).isEqualTo(v);
            VInt.writeSigned(b, v);
            assertThat(VInt.readSigned(b)).isEqualTo(v);
            b.release();
            ByteBuffer bb = ByteBuffer.allocate(9);
            VInt.writeSigned(bb, v);
            bb.flip();
            assertThat(bb.remaining()).isEqualTo(VInt.signedSize(v));
            assertThat(VInt.readSigned(bb)).isEqualTo(v);
        }
    }

    @Test
    void shouldRejectTruncatedVInt() {
        assertThatThrownBy(() -> VInt.readUnsigned(ByteBuffer.wrap(new byte[] {(byte) 0xC3, 0x01})))
                .isInstanceOf(MarshalException.class);
        assertThatThrownBy(() -> VInt.readUnsigned(ByteBuffer.allocate(0))).isInstanceOf(MarshalException.class);
    }
}
