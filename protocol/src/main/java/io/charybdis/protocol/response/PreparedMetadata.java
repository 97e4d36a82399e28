package io.charybdis.protocol.response;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * The bind variables of a prepared statement:
 * <pre>
 *   &lt;flags:int&gt;&lt;columns_count:int&gt;&lt;pk_count:int&gt;[&lt;pk_index:short&gt;...]
 *   [&lt;global_ks&gt;&lt;global_table&gt;] { [&lt;ks&gt;&lt;table&gt;] &lt;name&gt;&lt;type&gt; }*
 * </pre>
 *
 * @param globalTableSpec flag 0x01: keyspace and table written once
 * @param pkIndexes       for each partition key column, the index of the bind variable holding it (empty when
 *                        not all are bound)
 */
public record PreparedMetadata(boolean globalTableSpec, List<ColumnSpec> columns, List<Integer> pkIndexes) {
    public PreparedMetadata {
        columns = List.copyOf(columns);
        pkIndexes = List.copyOf(pkIndexes);
        if (columns.isEmpty()) {
            globalTableSpec = false;
        }
    }

    public static PreparedMetadata of(List<ColumnSpec> columns, List<Integer> pkIndexes) {
        return new PreparedMetadata(ResultMetadata.of(columns).globalTableSpec(), columns, pkIndexes);
    }

    /** The {@code flags} int as written. */
    public int flags() {
        return globalTableSpec ? ResultMetadata.GLOBAL_TABLES_SPEC : 0;
    }

    public void write(ByteBuf out, ProtocolVersion version) {
        out.writeInt(flags());
        out.writeInt(columns.size());
        if (version.isAtLeast(ProtocolVersion.V4)) {
            out.writeInt(pkIndexes.size());
            for (int i : pkIndexes) {
                out.writeShort(i);
            }
        }
        ResultMetadata.writeColumns(out, version, globalTableSpec, columns);
    }
}
