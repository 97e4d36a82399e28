package io.charybdis.protocol;

import io.charybdis.protocol.frame.EnvelopeDecoder;
import io.charybdis.protocol.frame.FrameDecoder;
import io.charybdis.protocol.request.Requests;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Random and mutated input never escapes as anything but a {@link ProtocolException}. */
class FuzzTest {
    private static final byte[] QUERY_BODY = TestBuffers.body().longString("SELECT * FROM t WHERE k = ?")
            .short_(1).byte_(0x3D).short_(1).bytes(new byte[] {1, 2, 3, 4}).int_(5000).bytes(new byte[] {7})
            .short_(8).long_(1L).build();

    private static byte[] mutate(byte[] in, Random r) {
        byte[] b = in.clone();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        }
        return r.nextBoolean() ? b : java.util.Arrays.copyOf(b, r.nextInt(b.length + 1));
    }

    @Test
    void shouldOnlyThrowProtocolExceptionForMutatedRequestBodies() {
        Random r = new Random(42);
        for (int i = 0; i < 5000; i++) {
            byte[] body = mutate(QUERY_BODY, r);
            for (ProtocolVersion v : ProtocolVersion.values()) {
                Opcode op = Opcode.values()[r.nextInt(Opcode.values().length)];
                if (!op.isRequest()) {
                    continue;
                }
                Envelope env = new Envelope(v, 0, 1, op, Unpooled.wrappedBuffer(body));
                try {
                    Requests.decode(env);
                } catch (ProtocolException expected) {
                    assertThat(expected.streamId()).isEqualTo(1);
                } finally {
                    env.release();
                }
            }
        }
    }

    @Test
    void shouldOnlyThrowProtocolExceptionForRandomBytesIntoDecoders() {
        Random r = new Random(7);
        for (int i = 0; i < 2000; i++) {
            byte[] wire = new byte[r.nextInt(64)];
            r.nextBytes(wire);
            if (wire.length > 0 && r.nextBoolean()) {
                wire[0] = (byte) (4 + r.nextInt(2));
            }
            EnvelopeDecoder envelopeDecoder = new EnvelopeDecoder(1 << 16);
            envelopeDecoder.enableLz4();
            for (var handler : new io.netty.channel.ChannelHandler[] {envelopeDecoder, new FrameDecoder(r.nextBoolean())}) {
                EmbeddedChannel c = new EmbeddedChannel(handler);
                try {
                    c.writeInbound(Unpooled.wrappedBuffer(wire));
                } catch (ProtocolException expected) {
                    // fine
                } finally {
                    c.finishAndReleaseAll();
                }
            }
        }
    }
}
