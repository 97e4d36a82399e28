package io.charybdis.protocol.response;

import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.ErrorCode;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.types.DataType;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

import static io.charybdis.protocol.TestBuffers.body;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protocol v3 (cassandra-stress {@code -mode native cql3 protocolVersion=3}, old drivers): what Cassandra 5.0 writes
 * differently from v4 (its transport's DataType, ResultSet.PreparedMetadata, ErrorMessage and Event codecs).
 */
class ProtocolV3ResponsesTest {
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
    void shouldAcceptVersionThree() {
        assertThat(ProtocolVersion.isSupported(3)).isTrue();
        assertThat(ProtocolVersion.fromCode(3)).isEqualTo(ProtocolVersion.V3);
        assertThat(ProtocolVersion.isSupported(2)).isFalse();
        assertThat(ProtocolVersion.V3.usesFraming()).isFalse();
    }

    @Test
    void shouldWritePreparedWithoutPartitionKeyIndexes() {
        PreparedMetadata pm = PreparedMetadata.of(List.of(new ColumnSpec("ks", "t", "k", DataType.INT)), List.of(0));
        String metadata = hex(body().int_(1).int_(1).string("ks").string("t").string("k").short_(9).build());
        String noResult = hex(body().int_(0x04).int_(0).build());
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V3, 1).prepared(new byte[] {1, 2}, null, pm,
                ResultMetadata.EMPTY))).isEqualTo("00000004" + "000201" + "02" + metadata + noResult);
    }

    @Test
    void shouldWriteTypesNewerThanV3AsCustom() {
        PreparedMetadata pm = PreparedMetadata.of(List.of(new ColumnSpec("ks", "t", "d", DataType.DATE),
                new ColumnSpec("ks", "t", "s", DataType.SMALLINT)), List.of());
        String metadata = hex(body().int_(1).int_(2).string("ks").string("t")
                .string("d").short_(0).string("org.apache.cassandra.db.marshal.SimpleDateType")
                .string("s").short_(0).string("org.apache.cassandra.db.marshal.ShortType").build());
        String noResult = hex(body().int_(0x04).int_(0).build());
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V3, 1).prepared(new byte[] {1, 2}, null, pm,
                ResultMetadata.EMPTY))).isEqualTo("00000004" + "00020102" + metadata + noResult);
    }

    @Test
    void shouldSendNoWarningsToV3() {
        Envelope v3 = Responses.to(alloc, ProtocolVersion.V3, 1).warnings(List.of("Batch too large")).voidResult();
        assertThat(v3.flags()).isZero();
        assertThat(hex(v3)).isEqualTo("00000001");
        Envelope v4 = Responses.to(alloc, ProtocolVersion.V4, 1).warnings(List.of("Batch too large")).voidResult();
        assertThat(v4.flags()).isEqualTo(Envelope.WARNING);
        v4.release();
    }

    @Test
    void shouldSendFailuresAsTheirV3StandIns() throws Exception {
        Map<InetAddress, Integer> reasons = Map.of(InetAddress.getByName("127.0.0.1"), 0);
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V3, 1).readFailure("failed", Consistency.ONE, 0, 1,
                reasons, false))).isEqualTo(hex(body().int_(ErrorCode.READ_TIMEOUT.code())
                .string("Operation timed out - received only 0 responses.").short_(1).int_(0).int_(1).byte_(0)
                .build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V3, 1).writeFailure("failed", Consistency.ONE, 0, 1,
                reasons, WriteType.SIMPLE))).isEqualTo(hex(body().int_(ErrorCode.WRITE_TIMEOUT.code())
                .string("Operation timed out - received only 0 responses.").short_(1).int_(0).int_(1)
                .string("SIMPLE").build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V3, 1).functionFailure("boom", "ks", "f",
                List.of("int")))).isEqualTo(hex(body().int_(ErrorCode.INVALID.code())
                .string("ERROR FUNCTION_FAILURE: boom").build()));
    }

    @Test
    void shouldReportFunctionChangesAsKeyspaceUpdatesToV3() {
        SchemaChange created = new SchemaChange(SchemaChange.Change.CREATED, SchemaChange.Target.FUNCTION, "ks",
                "f", List.of("int"));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V3, 1).schemaChange(created)))
                .isEqualTo(hex(body().int_(ResponseBuilder.RESULT_SCHEMA_CHANGE).string("UPDATED").string("KEYSPACE")
                        .string("ks").build()));
        assertThat(hex(Responses.to(alloc, ProtocolVersion.V4, 1).schemaChange(created)))
                .isEqualTo(hex(body().int_(ResponseBuilder.RESULT_SCHEMA_CHANGE).string("CREATED").string("FUNCTION")
                        .string("ks").string("f").short_(1).string("int").build()));
        SchemaChange table = SchemaChange.table(SchemaChange.Change.CREATED, "ks", "t");
        assertThat(table.forVersion(ProtocolVersion.V3)).isSameAs(table);
    }
}
