package io.charybdis.node.jmx;

import io.charybdis.node.cql.keys.Murmur3;
import io.charybdis.node.cql.keys.PartitionKeyCodec;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * A partition key written as nodetool takes it ({@code getendpoints ks table KEY}: the value as text, the components
 * of a composite key separated by ':'), turned into its token as Cassandra's {@code fromString} of the key type
 * would. Native types only; a key of another type fails naming it.
 */
final class KeyStrings {
    private KeyStrings() {
    }

    static long token(TableMetadata table, String key) {
        List<ColumnMetadata> pk = table.partitionKey();
        String[] parts = pk.size() == 1 ? new String[] {key} : key.split(":", -1);
        if (parts.length != pk.size()) {
            throw new IllegalArgumentException("the partition key of " + table.keyspace() + "." + table.name() + " has "
                    + pk.size() + " components, '" + key + "' has " + parts.length);
        }
        ByteBuffer[] components = new ByteBuffer[parts.length];
        for (int i = 0; i < parts.length; i++) {
            components[i] = fromString(pk.get(i).type(), parts[i]);
        }
        return Murmur3.token(PartitionKeyCodec.compose(components));
    }

    static ByteBuffer fromString(DataType type, String s) {
        if (!(type instanceof NativeType n)) {
            throw new UnsupportedOperationException("getendpoints for a partition key of type " + type
                    + " is not built in Charybdis");
        }
        try {
            return switch (n) {
                case ASCII, TEXT -> ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
                case INT -> ByteBuffer.allocate(4).putInt(0, Integer.parseInt(s.trim()));
                case BIGINT, COUNTER -> ByteBuffer.allocate(8).putLong(0, Long.parseLong(s.trim()));
                case SMALLINT -> ByteBuffer.allocate(2).putShort(0, Short.parseShort(s.trim()));
                case TINYINT -> ByteBuffer.allocate(1).put(0, Byte.parseByte(s.trim()));
                case BOOLEAN -> ByteBuffer.wrap(new byte[] {(byte) (Boolean.parseBoolean(s.trim()) ? 1 : 0)});
                case UUID, TIMEUUID -> {
                    UUID u = UUID.fromString(s.trim());
                    yield ByteBuffer.allocate(16).putLong(0, u.getMostSignificantBits())
                            .putLong(8, u.getLeastSignificantBits());
                }
                case BLOB -> ByteBuffer.wrap(HexFormat.of().parseHex(s.startsWith("0x") ? s.substring(2) : s));
                case DOUBLE -> ByteBuffer.allocate(8).putDouble(0, Double.parseDouble(s.trim()));
                case FLOAT -> ByteBuffer.allocate(4).putFloat(0, Float.parseFloat(s.trim()));
                case VARINT -> ByteBuffer.wrap(new BigInteger(s.trim()).toByteArray());
                case INET -> ByteBuffer.wrap(InetAddress.getByName(s.trim()).getAddress());
                default -> throw new UnsupportedOperationException("getendpoints for a partition key of type "
                        + n + " is not built in Charybdis");
            };
        } catch (NumberFormatException | UnknownHostException e) {
            throw new IllegalArgumentException("cannot read '" + s + "' as " + n + ": " + e.getMessage());
        }
    }
}
