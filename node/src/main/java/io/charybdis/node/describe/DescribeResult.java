package io.charybdis.node.describe;

import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The rows a DESCRIBE statement returns, as Cassandra 5.0 returns them: the result columns (all in the pseudo
 * table {@code system.describe}), their types, and the serialized values of every row, in order. Cassandra pages
 * these rows like a SELECT; the caller may page over {@link #rows()}.
 */
public record DescribeResult(List<String> columnNames, List<DataType> columnTypes, List<List<ByteBuffer>> rows) {
    /** The keyspace and table Cassandra names in the result metadata of DESCRIBE. */
    public static final String KEYSPACE = "system";
    public static final String TABLE = "describe";

    public DescribeResult {
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
        rows = List.copyOf(rows);
    }

    /** Row {@code row}, column {@code column} as a string (every DESCRIBE column but range_ownership is text). */
    public String text(int row, int column) {
        ByteBuffer v = rows.get(row).get(column);
        return v == null ? null : (String) NativeType.TEXT.compose(v.duplicate());
    }
}
