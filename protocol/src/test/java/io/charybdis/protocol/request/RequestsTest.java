package io.charybdis.protocol.request;

import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.TestBuffers;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

import static io.charybdis.protocol.TestBuffers.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestsTest {

    private static Request decode(ProtocolVersion v, Opcode op, byte[] body) {
        return decode(v, 0, op, body);
    }

    private static Request decode(ProtocolVersion v, int flags, Opcode op, byte[] body) {
        Envelope env = new Envelope(v, flags, 3, op, Unpooled.wrappedBuffer(body));
        try {
            return Requests.decode(env);
        } finally {
            env.release();
        }
    }

    @Test
    void shouldDecodeStartup() {
        byte[] b = body().short_(2).string("CQL_VERSION").string("3.0.0").string("COMPRESSION").string("LZ4").build();
        Request.Startup s = (Request.Startup) decode(ProtocolVersion.V4, Opcode.STARTUP, b);
        assertThat(s.options()).containsExactly(Map.entry("CQL_VERSION", "3.0.0"), Map.entry("COMPRESSION", "LZ4"));
        assertThat(s.compression()).isEqualTo("lz4");
    }

    @Test
    void shouldDecodeOptionsRegisterAndAuthResponse() {
        assertThat(decode(ProtocolVersion.V4, Opcode.OPTIONS, new byte[0])).isEqualTo(new Request.Options());
        Request.Register r = (Request.Register) decode(ProtocolVersion.V5, Opcode.REGISTER,
                body().short_(2).string("SCHEMA_CHANGE").string("STATUS_CHANGE").build());
        assertThat(r.eventTypes()).containsExactly("SCHEMA_CHANGE", "STATUS_CHANGE");
        byte[] token = "\0cassandra\0cassandra".getBytes();
        Request.AuthResponse a = (Request.AuthResponse) decode(ProtocolVersion.V4, Opcode.AUTH_RESPONSE,
                body().bytes(token).build());
        assertThat(a.token()).isEqualTo(token);
        Request.AuthResponse empty = (Request.AuthResponse) decode(ProtocolVersion.V4, Opcode.AUTH_RESPONSE,
                body().bytes(null).build());
        assertThat(empty.token()).isNull();
    }

    @Test
    void shouldDecodeV4QueryWithAllOptions() {
        byte[] b = body().longString("SELECT * FROM t WHERE k = ?").short_(Consistency.LOCAL_QUORUM.code())
                .byte_(0x01 | 0x02 | 0x04 | 0x08 | 0x10 | 0x20)
                .short_(3).bytes(new byte[] {0, 0, 0, 1}).int_(-1).int_(-2)
                .int_(100).bytes(new byte[] {9, 9}).short_(Consistency.LOCAL_SERIAL.code()).long_(123456789L)
                .build();
        Request.Query q = (Request.Query) decode(ProtocolVersion.V4, Opcode.QUERY, b);
        assertThat(q.query()).isEqualTo("SELECT * FROM t WHERE k = ?");
        QueryOptions o = q.options();
        assertThat(o.consistency()).isEqualTo(Consistency.LOCAL_QUORUM);
        assertThat(o.values()).hasSize(3);
        assertThat(o.values().get(0)).isEqualTo(ByteBuffer.wrap(new byte[] {0, 0, 0, 1}));
        assertThat(o.values().get(1)).isNull();
        assertThat(o.values().get(2)).isSameAs(QueryOptions.UNSET);
        assertThat(o.valueNames()).isNull();
        assertThat(o.skipMetadata()).isTrue();
        assertThat(o.pageSize()).isEqualTo(100);
        assertThat(o.pagingState()).containsExactly(9, 9);
        assertThat(o.serialConsistency()).isEqualTo(Consistency.LOCAL_SERIAL);
        assertThat(o.defaultTimestamp()).isEqualTo(123456789L);
        assertThat(o.keyspace()).isNull();
        assertThat(o.hasNowInSeconds()).isFalse();
    }

    @Test
    void shouldDecodeMinimalQueryWithDefaults() {
        Request.Query q = (Request.Query) decode(ProtocolVersion.V4, Opcode.QUERY,
                body().longString("SELECT 1").short_(1).byte_(0).build());
        assertThat(q.options()).isEqualTo(QueryOptions.of(Consistency.ONE));
        assertThat(q.options().pageSize()).isEqualTo(-1);
        assertThat(q.options().defaultTimestamp()).isEqualTo(Long.MIN_VALUE);
        assertThat(q.options().nowInSeconds()).isEqualTo(Integer.MIN_VALUE);
    }

    @Test
    void shouldDecodeV5QueryWithIntFlagsKeyspaceNowAndNamedValues() {
        byte[] b = body().longString("INSERT INTO t (k) VALUES (:k)").short_(Consistency.QUORUM.code())
                .int_(0x01 | 0x40 | 0x80 | 0x100)
                .short_(1).string("k").bytes(new byte[] {1})
                .string("ks1").int_(1_700_000_000).build();
        Request.Query q = (Request.Query) decode(ProtocolVersion.V5, Opcode.QUERY, b);
        assertThat(q.options().valueNames()).containsExactly("k");
        assertThat(q.options().values()).containsExactly(ByteBuffer.wrap(new byte[] {1}));
        assertThat(q.options().keyspace()).isEqualTo("ks1");
        assertThat(q.options().nowInSeconds()).isEqualTo(1_700_000_000);
    }

    @Test
    void shouldSkipCustomPayloadBeforeBody() {
        byte[] b = body().short_(1).string("k").bytes(new byte[] {7}).longString("SELECT 1").short_(1).byte_(0)
                .build();
        Request.Query q = (Request.Query) decode(ProtocolVersion.V4, Envelope.CUSTOM_PAYLOAD, Opcode.QUERY, b);
        assertThat(q.query()).isEqualTo("SELECT 1");
        Envelope env = new Envelope(ProtocolVersion.V4, Envelope.CUSTOM_PAYLOAD, 1, Opcode.QUERY,
                Unpooled.wrappedBuffer(b));
        assertThat(Requests.customPayload(env)).containsEntry("k", ByteBuffer.wrap(new byte[] {7}));
        env.release();
    }

    @Test
    void shouldDecodePrepareInV4AndV5() {
        Request.Prepare p4 = (Request.Prepare) decode(ProtocolVersion.V4, Opcode.PREPARE,
                body().longString("SELECT * FROM t").build());
        assertThat(p4).isEqualTo(new Request.Prepare("SELECT * FROM t", null));
        Request.Prepare p5 = (Request.Prepare) decode(ProtocolVersion.V5, Opcode.PREPARE,
                body().longString("SELECT * FROM t").int_(1).string("ks").build());
        assertThat(p5).isEqualTo(new Request.Prepare("SELECT * FROM t", "ks"));
        Request.Prepare p5NoKs = (Request.Prepare) decode(ProtocolVersion.V5, Opcode.PREPARE,
                body().longString("SELECT 1").int_(0).build());
        assertThat(p5NoKs.keyspace()).isNull();
    }

    @Test
    void shouldDecodeExecuteInV4AndV5() {
        byte[] id = {1, 2, 3, 4};
        Request.Execute e4 = (Request.Execute) decode(ProtocolVersion.V4, Opcode.EXECUTE,
                body().shortBytes(id).short_(1).byte_(0x01).short_(1).bytes(new byte[] {5}).build());
        assertThat(e4.statementId()).isEqualTo(id);
        assertThat(e4.resultMetadataId()).isNull();
        assertThat(e4.options().values()).hasSize(1);
        Request.Execute e5 = (Request.Execute) decode(ProtocolVersion.V5, Opcode.EXECUTE,
                body().shortBytes(id).shortBytes(new byte[] {8, 8}).short_(4).int_(0x04).int_(5000).build());
        assertThat(e5.resultMetadataId()).containsExactly(8, 8);
        assertThat(e5.options().consistency()).isEqualTo(Consistency.QUORUM);
        assertThat(e5.options().pageSize()).isEqualTo(5000);
    }

    @Test
    void shouldDecodeBatchWithQueryAndPreparedChildren() {
        byte[] b = body().byte_(1).short_(2)
                .byte_(0).longString("INSERT INTO t (k) VALUES (1)").short_(0)
                .byte_(1).shortBytes(new byte[] {7, 7}).short_(2).bytes(new byte[] {1}).int_(-2)
                .short_(Consistency.ONE.code()).byte_(0x10 | 0x20).short_(Consistency.SERIAL.code()).long_(42L)
                .build();
        Request.Batch batch = (Request.Batch) decode(ProtocolVersion.V4, Opcode.BATCH, b);
        assertThat(batch.type()).isEqualTo(BatchType.UNLOGGED);
        assertThat(batch.children()).hasSize(2);
        assertThat(batch.children().get(0)).isEqualTo(new BatchChild.QueryChild("INSERT INTO t (k) VALUES (1)",
                java.util.List.of()));
        BatchChild.PreparedChild p = (BatchChild.PreparedChild) batch.children().get(1);
        assertThat(p.statementId()).containsExactly(7, 7);
        assertThat(p.values().get(1)).isSameAs(QueryOptions.UNSET);
        assertThat(batch.consistency()).isEqualTo(Consistency.ONE);
        assertThat(batch.serialConsistency()).isEqualTo(Consistency.SERIAL);
        assertThat(batch.defaultTimestamp()).isEqualTo(42L);
        assertThat(batch.keyspace()).isNull();
    }

    @Test
    void shouldDecodeV5BatchWithKeyspaceAndNowInSeconds() {
        byte[] b = body().byte_(0).short_(1).byte_(0).longString("UPDATE t SET v = 1 WHERE k = 1").short_(0)
                .short_(Consistency.ALL.code()).int_(0x80 | 0x100).string("ks").int_(99).build();
        Request.Batch batch = (Request.Batch) decode(ProtocolVersion.V5, Opcode.BATCH, b);
        assertThat(batch.type()).isEqualTo(BatchType.LOGGED);
        assertThat(batch.keyspace()).isEqualTo("ks");
        assertThat(batch.nowInSeconds()).isEqualTo(99);
        assertThat(batch.hasDefaultTimestamp()).isFalse();
    }

    @Test
    void shouldRejectEveryTruncationOfAQueryWithProtocolException() {
        byte[] full = body().longString("SELECT * FROM t").short_(1).byte_(0x01 | 0x04 | 0x08 | 0x10 | 0x20)
                .short_(1).bytes(new byte[] {1, 2, 3}).int_(10).bytes(new byte[] {4}).short_(8).long_(1L).build();
        decode(ProtocolVersion.V4, Opcode.QUERY, full);
        for (int n = 0; n < full.length; n++) {
            byte[] truncated = Arrays.copyOf(full, n);
            assertThatThrownBy(() -> decode(ProtocolVersion.V4, Opcode.QUERY, truncated))
                    .as("truncated to %d bytes", n)
                    .isInstanceOfSatisfying(ProtocolException.class, e -> {
                        assertThat(e.streamId()).isEqualTo(3);
                        assertThat(e.isFatal()).isFalse();
                    })
                    .hasMessageContaining("Not enough bytes");
        }
    }

    @Test
    void shouldRejectEveryTruncationOfBatchExecuteAndStartup() {
        byte[][] bodies = {
            body().byte_(1).short_(1).byte_(1).shortBytes(new byte[] {7}).short_(1).bytes(new byte[] {1})
                    .short_(1).byte_(0x20).long_(5L).build(),
            body().shortBytes(new byte[] {1, 2}).short_(1).byte_(0).build(),
            body().short_(1).string("CQL_VERSION").string("3.0.0").build(),
        };
        Opcode[] ops = {Opcode.BATCH, Opcode.EXECUTE, Opcode.STARTUP};
        for (int i = 0; i < bodies.length; i++) {
            for (int n = 0; n < bodies[i].length; n++) {
                byte[] truncated = Arrays.copyOf(bodies[i], n);
                Opcode op = ops[i];
                assertThatThrownBy(() -> decode(ProtocolVersion.V4, op, truncated))
                        .as("%s truncated to %d bytes", op, n)
                        .isInstanceOf(ProtocolException.class);
            }
        }
    }

    @Test
    void shouldRejectInvalidValuesWithClearMessages() {
        assertThatThrownBy(() -> decode(ProtocolVersion.V4, Opcode.QUERY,
                body().longString("x").short_(0x20).byte_(0).build()))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("consistency");
        assertThatThrownBy(() -> decode(ProtocolVersion.V4, Opcode.QUERY,
                body().longString("x").short_(1).byte_(1).short_(1).int_(-3).build()))
                .isInstanceOf(ProtocolException.class).hasMessage("Invalid [value] length: -3");
        assertThatThrownBy(() -> decode(ProtocolVersion.V4, Opcode.BATCH,
                body().byte_(7).short_(0).build()))
                .isInstanceOf(ProtocolException.class).hasMessage("Unknown batch type 7");
        assertThatThrownBy(() -> decode(ProtocolVersion.V4, Opcode.BATCH,
                body().byte_(0).short_(1).byte_(2).build()))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("Invalid query kind");
        assertThatThrownBy(() -> decode(ProtocolVersion.V4, Opcode.QUERY, body().int_(-5).build()))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("Negative [long string] length");
        assertThatThrownBy(() -> decode(ProtocolVersion.V4, Opcode.RESULT, new byte[0]))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("not a request");
    }

    @Test
    void shouldNotConsumeOrReleaseEnvelopeBody() {
        Envelope env = new Envelope(ProtocolVersion.V4, 0, 1, Opcode.OPTIONS, Unpooled.buffer(4).writeInt(1));
        Requests.decode(env);
        assertThat(env.body().readableBytes()).isEqualTo(4);
        assertThat(env.refCnt()).isEqualTo(1);
        env.release();
        TestBuffers.body().build();
    }
}
