package io.charybdis.protocol.frame;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vectors cross-checked against an independent implementation (the DataStax python driver's
 * {@code cassandra.segment.compute_crc24} and its seeded CRC32 segment trailer).
 */
class ChecksumTest {

    @Test
    void shouldComputeCrc24OfHeaderValues() {
        assertThat(Crc24.compute(0L, 3)).isEqualTo(0x7DE777);
        assertThat(Crc24.compute(50 | (1 << 17), 3)).isEqualTo(0xEEFFA5);
        assertThat(Crc24.compute(0x1FFFF, 3)).isEqualTo(0xFE9138);
        assertThat(Crc24.compute(0x3FFFF, 3)).isEqualTo(0x474025);
        assertThat(Crc24.compute(0x12_3456_789AL, 5)).isEqualTo(0x40D313);
        assertThat(Crc24.compute(25 | (50L << 17) | (1L << 34), 5)).isEqualTo(0xE410D4);
    }

    @Test
    void shouldComputeSameCrc24FromBufferInWireOrder() {
        byte[] le = {0x32, 0x00, 0x02};
        assertThat(Crc24.compute(Unpooled.wrappedBuffer(le), 0, 3)).isEqualTo(0xEEFFA5);
    }

    @Test
    void shouldStartCrc24FromInitialValue() {
        assertThat(Crc24.compute(0L, 0)).isEqualTo(Crc24.INIT);
    }

    @Test
    void shouldComputeSeededCrc32() {
        assertThat(Crc32Seeded.compute(new byte[0], 0, 0)).isEqualTo(0x44777ED3);
        byte[] b50 = "b".repeat(50).getBytes(StandardCharsets.US_ASCII);
        assertThat(Crc32Seeded.compute(b50, 0, 50)).isEqualTo(0x7CEBAE7A);
        byte[] hello = "hello world".getBytes(StandardCharsets.US_ASCII);
        assertThat(Crc32Seeded.compute(hello, 0, hello.length)).isEqualTo(0x4A62481F);
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        assertThat(Crc32Seeded.compute(all, 0, 256)).isEqualTo(0x214DE79B);
    }

    @Test
    void shouldComputeSameCrc32ForHeapDirectAndCompositeBuffers() {
        byte[] hello = "hello world".getBytes(StandardCharsets.US_ASCII);
        var direct = Unpooled.directBuffer().writeBytes(hello);
        var composite = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(hello, 0, 5),
                Unpooled.wrappedBuffer(hello, 5, 6));
        try {
            assertThat(Crc32Seeded.compute(direct, 0, hello.length)).isEqualTo(0x4A62481F);
            assertThat(Crc32Seeded.compute(composite, 0, hello.length)).isEqualTo(0x4A62481F);
        } finally {
            direct.release();
            composite.release();
        }
    }
}
