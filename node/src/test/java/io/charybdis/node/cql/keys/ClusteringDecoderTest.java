package io.charybdis.node.cql.keys;

import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TableParams;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.TupleType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The allocation-free decoder gives what {@link ClusteringCodec#decode} gives, for every type, in both orders. */
class ClusteringDecoderTest {
    private static final List<DataType> TYPES = List.of(NativeType.INT, NativeType.BIGINT, NativeType.SMALLINT,
            NativeType.TINYINT, NativeType.DATE, NativeType.TIMESTAMP, NativeType.FLOAT, NativeType.DOUBLE,
            NativeType.BOOLEAN, NativeType.TEXT, NativeType.BLOB, NativeType.ASCII, NativeType.VARINT,
            NativeType.UUID, NativeType.TIMEUUID, NativeType.DECIMAL, NativeType.INET,
            new TupleType(List.of(NativeType.INT, NativeType.TEXT)));

    private final Random random = new Random(11);

    @Test
    void decodesAClusteringPrefixWithItsMissingValuesNull() {
        List<ColumnMetadata> cols = List.of(
                new ColumnMetadata("p", NativeType.INT, ColumnMetadata.Kind.PARTITION_KEY, 0, false, -1),
                new ColumnMetadata("c0", NativeType.INT, ColumnMetadata.Kind.CLUSTERING, 0, true, -1),
                new ColumnMetadata("c1", NativeType.TEXT, ColumnMetadata.Kind.CLUSTERING, 1, false, -1),
                new ColumnMetadata("c2", NativeType.DECIMAL, ColumnMetadata.Kind.CLUSTERING, 2, false, -1));
        TableMetadata table = new TableMetadata("ks", "t", UUID.randomUUID(), cols, TableParams.defaults(), 0,
                Map.of(), Map.of(), false);
        ByteBuffer[] values = {ByteBuffer.allocate(4).putInt(0, 3), ByteBuffer.wrap("x".getBytes()), null};
        byte[] prefix = ClusteringCodec.encodePrefix(table, values, 2);
        ByteBuffer[] allocating = new ByteBuffer[3];
        ClusteringCodec.decode(table, prefix, allocating);
        ByteBuffer[] decoded = new ByteBuffer[3];
        new ClusteringDecoder(table).decode(prefix, 0, prefix.length, decoded, 0);
        for (ByteBuffer[] out : List.of(allocating, decoded)) {
            assertThat(out[0]).isEqualTo(values[0]);
            assertThat(out[1]).isEqualTo(values[1]);
            assertThat(out[2]).isNull();
        }
        // a prefix sorts before every row extending it
        byte[] full = ClusteringCodec.encode(table, new ByteBuffer[] {values[0], values[1],
                ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 1})});
        assertThat(java.util.Arrays.compareUnsigned(prefix, full)).isNegative();
    }

    @Test
    void decodesLikeTheAllocatingCodec() {
        for (int round = 0; round < 3000; round++) {
            int n = 1 + random.nextInt(4);
            List<ColumnMetadata> cols = new ArrayList<>();
            cols.add(new ColumnMetadata("p", NativeType.INT, ColumnMetadata.Kind.PARTITION_KEY, 0, false, -1));
            for (int i = 0; i < n; i++) {
                cols.add(new ColumnMetadata("c" + i, TYPES.get(random.nextInt(TYPES.size())),
                        ColumnMetadata.Kind.CLUSTERING, i, random.nextBoolean(), -1));
            }
            TableMetadata table = new TableMetadata("ks", "t", UUID.randomUUID(), cols, TableParams.defaults(), 0,
                    Map.of(), Map.of(), false);
            ClusteringDecoder decoder = new ClusteringDecoder(table);
            for (int row = 0; row < 5; row++) {
                ByteBuffer[] values = new ByteBuffer[n];
                for (int i = 0; i < n; i++) {
                    values[i] = random.nextInt(12) == 0 ? ByteBuffer.allocate(0) : value(table.clustering().get(i)
                            .type());
                }
                byte[] key = ClusteringCodec.encode(table, values);
                ByteBuffer[] expected = new ByteBuffer[n];
                ClusteringCodec.decode(table, key, expected);
                // decode from the middle of a larger array, as from a read result
                byte[] src = new byte[key.length + 7];
                System.arraycopy(key, 0, src, 3, key.length);
                ByteBuffer[] actual = new ByteBuffer[n + 2];
                decoder.decode(src, 3, key.length, actual, 2);
                for (int i = 0; i < n; i++) {
                    assertThat(actual[2 + i]).as("%s %s", table.clustering().get(i), values[i]).isEqualTo(expected[i]);
                }
            }
        }
    }

    private ByteBuffer value(DataType t) {
        if (t instanceof TupleType) {
            byte[] text = bytes(random.nextInt(6));
            ByteBuffer b = ByteBuffer.allocate(4 + 4 + 4 + text.length);
            b.putInt(4).putInt(random.nextInt()).putInt(text.length).put(text);
            return b.flip();
        }
        return switch ((NativeType) t) {
            case INT, DATE, FLOAT -> ByteBuffer.wrap(bytes(4));
            case BIGINT, TIMESTAMP, DOUBLE -> ByteBuffer.wrap(bytes(8));
            case SMALLINT -> ByteBuffer.wrap(bytes(2));
            case TINYINT -> ByteBuffer.wrap(bytes(1));
            case BOOLEAN -> ByteBuffer.wrap(new byte[]{(byte) random.nextInt(2)});
            case TEXT, BLOB, ASCII -> {
                byte[] b = bytes(random.nextInt(10));
                for (int i = 0; i < b.length; i++) {
                    if (random.nextInt(4) == 0) {
                        b[i] = (byte) (random.nextBoolean() ? 0 : 0xFF); // escapes and their look-alikes
                    }
                }
                yield ByteBuffer.wrap(b);
            }
            case INET -> ByteBuffer.wrap(bytes(random.nextBoolean() ? 4 : 16));
            case VARINT -> ByteBuffer.wrap(new BigInteger(random.nextInt(100), random)
                    .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)).toByteArray());
            case DECIMAL -> NativeType.DECIMAL.decompose(new BigDecimal(BigInteger.valueOf(random.nextLong()),
                    random.nextInt(20) - 10));
            case UUID, TIMEUUID -> {
                long msb = random.nextLong();
                int version = t == NativeType.TIMEUUID || random.nextBoolean() ? 1 : 4;
                msb = (msb & ~0xF000L) | ((long) version << 12);
                yield ByteBuffer.allocate(16).putLong(0, msb).putLong(8, random.nextLong());
            }
            default -> throw new IllegalArgumentException(t.toString());
        };
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
