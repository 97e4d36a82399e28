package io.charybdis.protocol.response;

import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.ErrorCode;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.types.DataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.charybdis.protocol.TestBuffers.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResponsesTest {
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;

    private static String hex(Envelope env) {
        try {
            return ByteBufUtil.hexDump(env.body());
        } finally {
            env.release();
        }
    }

    private static String hex(byte[] b) {
        return ByteBufUtil.hexDump(b);
    }

    @Test
    void shouldWriteReadyAsEmptyBody() {
        Envelope env = Responses.ready(alloc, ProtocolVersion.V4, 5);
        assertThat(env.opcode()).isEqualTo(Opcode.READY);
        assertThat(env.streamId()).isEqualTo((short) 5);
        assertThat(env.flags()).isZero();
        assertThat(hex(env)).isEmpty();
    }

    @Test
    void shouldWriteSupportedAsStringMultimap() {
        Map<String, List<String>> options = new LinkedHashMap<>();
        options.put("COMPRESSION", List.of("lz4"));
        Envelope env = Responses.supported(alloc, ProtocolVersion.V4, 0, options);
        assertThat(hex(env)).isEqualTo(hex(body().short_(1).string("COMPRESSION").short_(1).string("lz4").build()));
    }

    @Test
    void shouldWriteAuthenticateAndAuthMessages() {
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1)
                .authenticate("org.apache.cassandra.auth.PasswordAuthenticator")))
                .isEqualTo(hex(body().string("org.apache.cassandra.auth.PasswordAuthenticator").build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).authSuccess(null))).isEqualTo("ffffffff");
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).authChallenge(new byte[] {1, 2})))
                .isEqualTo("0000000201" + "02");
    }

    @Test
    void shouldWriteSimpleErrorByteByByte() {
        Envelope env = Responses.to(alloc, ProtocolVersion.V4, 9).error(ErrorCode.SYNTAX_ERROR, "line 1:0 no");
        assertThat(env.opcode()).isEqualTo(Opcode.ERROR);
        assertThat(hex(env)).isEqualTo("00002000" + "000b" + hex("line 1:0 no".getBytes()));
    }

    @Test
    void shouldWriteUnavailableError() {
        Envelope env = Responses.to(alloc, ProtocolVersion.V4, 1).unavailable("Cannot achieve", Consistency.QUORUM,
                2, 1);
        assertThat(hex(env)).isEqualTo(hex(body().int_(0x1000).string("Cannot achieve").short_(4).int_(2).int_(1)
                .build()));
    }

    @Test
    void shouldWriteContentionsInCasWriteTimeoutOnlyInV5() {
        String v4 = hex(Responses.to(alloc, ProtocolVersion.V4, 1)
                .writeTimeout("t", Consistency.SERIAL, 0, 2, WriteType.CAS, 3));
        String v5 = hex(Responses.to(alloc, ProtocolVersion.V5, 1)
                .writeTimeout("t", Consistency.SERIAL, 0, 2, WriteType.CAS, 3));
        String simple5 = hex(Responses.to(alloc, ProtocolVersion.V5, 1)
                .writeTimeout("t", Consistency.ONE, 0, 1, WriteType.SIMPLE, 3));
        String common = hex(body().int_(0x1100).string("t").short_(8).int_(0).int_(2).string("CAS").build());
        assertThat(v4).isEqualTo(common);
        assertThat(v5).isEqualTo(common + "0003");
        assertThat(simple5).isEqualTo(hex(body().int_(0x1100).string("t").short_(1).int_(0).int_(1)
                .string("SIMPLE").build()));
    }

    @Test
    void shouldWriteReadTimeout() {
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).readTimeout("r", Consistency.ONE, 0, 1, true)))
                .isEqualTo(hex(body().int_(0x1200).string("r").short_(1).int_(0).int_(1).byte_(1).build()));
    }

    @Test
    void shouldWriteFailureReasonMapInV5AndCountInV4() throws Exception {
        Map<InetAddress, Integer> reasons = Map.of(InetAddress.getByName("10.0.0.1"), 0x0001);
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1)
                .readFailure("f", Consistency.ONE, 0, 1, reasons, false)))
                .isEqualTo(hex(body().int_(0x1300).string("f").short_(1).int_(0).int_(1).int_(1).byte_(0).build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V5, 1)
                .readFailure("f", Consistency.ONE, 0, 1, reasons, false)))
                .isEqualTo(hex(body().int_(0x1300).string("f").short_(1).int_(0).int_(1).int_(1)
                        .byte_(4).raw(new byte[] {10, 0, 0, 1}).short_(1).byte_(0).build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V5, 1)
                .writeFailure("f", Consistency.ONE, 0, 1, reasons, WriteType.BATCH_LOG)))
                .isEqualTo(hex(body().int_(0x1500).string("f").short_(1).int_(0).int_(1).int_(1)
                        .byte_(4).raw(new byte[] {10, 0, 0, 1}).short_(1).string("BATCH_LOG").build()));
    }

    @Test
    void shouldWriteErrorExtras() {
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).alreadyExists("exists", "ks", "t")))
                .isEqualTo(hex(body().int_(0x2400).string("exists").string("ks").string("t").build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).unprepared("u", new byte[] {1, 2})))
                .isEqualTo(hex(body().int_(0x2500).string("u").shortBytes(new byte[] {1, 2}).build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).functionFailure("ff", "ks", "fn", List.of("int"))))
                .isEqualTo(hex(body().int_(0x1400).string("ff").string("ks").string("fn").short_(1).string("int")
                        .build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).casWriteUnknown("c", Consistency.SERIAL, 1, 2)))
                .isEqualTo(hex(body().int_(0x1700).string("c").short_(8).int_(1).int_(2).build()));
    }

    @Test
    void shouldPrependTracingIdWarningsAndCustomPayloadInOrder() {
        UUID id = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
        Envelope env = Responses.to(alloc, ProtocolVersion.V4, 1).tracing(id).warnings(List.of("w"))
                .customPayload(Map.of("k", ByteBuffer.wrap(new byte[] {5}))).voidResult();
        assertThat(env.flags()).isEqualTo(Envelope.TRACING | Envelope.WARNING | Envelope.CUSTOM_PAYLOAD);
        assertThat(hex(env)).isEqualTo("0102030405060708090a0b0c0d0e0f10" + "0001" + "0001" + "77"
                + "0001" + "0001" + "6b" + "0000000105" + "00000001");
    }

    @Test
    void shouldWriteSetKeyspaceAndSchemaChanges() {
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).setKeyspace("ks")))
                .isEqualTo("00000003" + "0002" + "6b73");
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1)
                .schemaChange(SchemaChange.keyspace(SchemaChange.Change.CREATED, "ks"))))
                .isEqualTo(hex(body().int_(5).string("CREATED").string("KEYSPACE").string("ks").build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).schemaChange(SchemaChange.Change.DROPPED,
                SchemaChange.Target.FUNCTION, "ks", "f", List.of("int", "text"))))
                .isEqualTo(hex(body().int_(5).string("DROPPED").string("FUNCTION").string("ks").string("f").short_(2)
                        .string("int").string("text").build()));
    }

    private static ResultMetadata twoColumns() {
        return ResultMetadata.of(List.of(new ColumnSpec("ks", "t", "k", DataType.INT),
                new ColumnSpec("ks", "t", "v", DataType.list(DataType.TEXT))));
    }

    @Test
    void shouldWriteRowsWithGlobalTableSpecAndPagingStateGivenAtTheEnd() {
        RowsWriter w = new RowsWriter(alloc, ProtocolVersion.V4);
        w.begin(twoColumns(), false, null, null);
        w.value(DataType.INT.decompose(1)).nullValue();
        ByteBuf off = Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 2, 9});
        w.value(off, 0, 4).value(new byte[0]);
        w.pagingState(new byte[] {7});
        assertThat(w.rowCount()).isEqualTo(2);
        Envelope env = Responses.to(alloc, ProtocolVersion.V4, 1).rows(w);
        assertThat(env.opcode()).isEqualTo(Opcode.RESULT);
        String expected = hex(body().int_(2)
                .int_(0x01 | 0x02).int_(2).bytes(new byte[] {7})
                .string("ks").string("t").string("k").short_(0x09).string("v").short_(0x20).short_(0x0D)
                .int_(2)
                .bytes(new byte[] {0, 0, 0, 1}).int_(-1)
                .bytes(new byte[] {0, 0, 0, 2}).bytes(new byte[0]).build());
        assertThat(hex(env)).isEqualTo(expected);
        assertThat(w.isActive()).isFalse();
    }

    @Test
    void shouldWriteRowsWithoutMetadataAndWithNewMetadataIdInV5() {
        RowsWriter w = new RowsWriter(alloc, ProtocolVersion.V5);
        w.begin(twoColumns(), true, null, new byte[] {3, 3});
        Envelope env = Responses.to(alloc, ProtocolVersion.V5, 1).rows(w);
        assertThat(hex(env)).isEqualTo(hex(body().int_(2).int_(0x04 | 0x08).int_(2).shortBytes(new byte[] {3, 3})
                .int_(0).build()));
    }

    @Test
    void shouldRefuseToFinishInTheMiddleOfARow() {
        RowsWriter w = new RowsWriter(alloc, ProtocolVersion.V4);
        w.begin(twoColumns(), false, null, null).nullValue();
        assertThatThrownBy(w::finish).isInstanceOf(IllegalStateException.class);
        assertThat(w.isActive()).isFalse();
    }

    @Test
    void shouldWritePreparedInV4AndV5() {
        PreparedMetadata pm = PreparedMetadata.of(List.of(new ColumnSpec("ks", "t", "k", DataType.INT)), List.of(0));
        byte[] id = {1, 2};
        String common = hex(body().int_(1).int_(1).int_(1).short_(0).string("ks").string("t").string("k")
                .short_(9).build());
        String noResult = hex(body().int_(0x04).int_(0).build());
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).prepared(id, new byte[] {5}, pm,
                ResultMetadata.EMPTY))).isEqualTo("00000004" + "000201" + "02" + common + noResult);
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V5, 1).prepared(id, new byte[] {5}, pm,
                ResultMetadata.EMPTY))).isEqualTo("00000004" + "000201" + "02" + "000105" + common + noResult);
    }

    @Test
    void shouldWriteEvents() throws Exception {
        InetSocketAddress addr = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 9042);
        Envelope topology = Responses.event(alloc, ProtocolVersion.V4,
                new Event.TopologyChange(Event.TopologyChangeType.NEW_NODE, addr));
        assertThat(topology.streamId()).isEqualTo((short) -1);
        assertThat(topology.opcode()).isEqualTo(Opcode.EVENT);
        assertThat(hex(topology)).isEqualTo(hex(body().string("TOPOLOGY_CHANGE").string("NEW_NODE").byte_(4)
                .raw(new byte[] {127, 0, 0, 1}).int_(9042).build()));
        assertThat(hex(Responses.event(alloc, ProtocolVersion.V4,
                new Event.StatusChange(Event.StatusChangeType.DOWN, addr))))
                .isEqualTo(hex(body().string("STATUS_CHANGE").string("DOWN").byte_(4)
                        .raw(new byte[] {127, 0, 0, 1}).int_(9042).build()));
        assertThat(hex(Responses.event(alloc, ProtocolVersion.V4,
                SchemaChange.table(SchemaChange.Change.UPDATED, "ks", "t"))))
                .isEqualTo(hex(body().string("SCHEMA_CHANGE").string("UPDATED").string("TABLE").string("ks")
                        .string("t").build()));
    }

    @Test
    void shouldComputeStableResultMetadataId() {
        assertThat(twoColumns().computeId()).hasSize(16).isEqualTo(twoColumns().computeId());
        assertThat(ResultMetadata.EMPTY.computeId()).isNotEqualTo(twoColumns().computeId());
    }
}
