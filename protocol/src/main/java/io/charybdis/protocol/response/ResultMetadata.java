package io.charybdis.protocol.response;

import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The columns of a result set. Layout of {@code <metadata>} in Rows and Prepared results:
 * <pre>
 *   &lt;flags:int&gt;&lt;columns_count:int&gt;[&lt;paging_state:bytes&gt;][&lt;new_metadata_id:short bytes&gt;]
 *   [&lt;global_ks:string&gt;&lt;global_table:string&gt;] { [&lt;ks&gt;&lt;table&gt;] &lt;name:string&gt;&lt;type:option&gt; }*
 * </pre>
 * flags: 0x01 global table spec, 0x02 has more pages, 0x04 no metadata, 0x08 metadata changed (v5).
 *
 * @param globalTableSpec write keyspace and table once (all columns must share them)
 */
public record ResultMetadata(List<ColumnSpec> columns, boolean globalTableSpec) {
    public static final int GLOBAL_TABLES_SPEC = 0x01;
    public static final int HAS_MORE_PAGES = 0x02;
    public static final int NO_METADATA = 0x04;
    public static final int METADATA_CHANGED = 0x08;

    /** No result columns (statements other than SELECT): written with the NO_METADATA flag. */
    public static final ResultMetadata EMPTY = new ResultMetadata(List.of(), false);

    public ResultMetadata {
        columns = List.copyOf(columns);
        if (globalTableSpec && !columns.isEmpty()) {
            ColumnSpec first = columns.get(0);
            for (ColumnSpec c : columns) {
                if (!c.keyspace().equals(first.keyspace()) || !c.table().equals(first.table())) {
                    throw new IllegalArgumentException("globalTableSpec with columns of several tables: "
                            + first.keyspace() + "." + first.table() + " and " + c.keyspace() + "." + c.table());
                }
            }
        }
    }

    /** Metadata using a global table spec whenever all columns come from one table. */
    public static ResultMetadata of(List<ColumnSpec> columns) {
        boolean global = !columns.isEmpty();
        for (ColumnSpec c : columns) {
            global &= c.keyspace().equals(columns.get(0).keyspace()) && c.table().equals(columns.get(0).table());
        }
        return new ResultMetadata(columns, global);
    }

    public int columnCount() {
        return columns.size();
    }

    /**
     * Writes {@code <metadata>}. {@code noMetadata} (the client asked to skip it, or there are no columns) writes
     * the flags, count and paging state only.
     */
    public void write(ByteBuf out, ProtocolVersion version, boolean noMetadata, byte[] pagingState,
                      byte[] newMetadataId) {
        boolean skip = noMetadata || columns.isEmpty();
        boolean changed = newMetadataId != null && version.isAtLeast(ProtocolVersion.V5);
        int flags = (skip ? NO_METADATA : 0) | (pagingState != null ? HAS_MORE_PAGES : 0)
                | (changed ? METADATA_CHANGED : 0) | (!skip && globalTableSpec ? GLOBAL_TABLES_SPEC : 0);
        out.writeInt(flags);
        out.writeInt(columns.size());
        if (pagingState != null) {
            Wire.writeBytes(out, pagingState);
        }
        if (changed) {
            Wire.writeShortBytes(out, newMetadataId);
        }
        if (!skip) {
            writeColumns(out, version, globalTableSpec, columns);
        }
    }

    static void writeColumns(ByteBuf out, ProtocolVersion version, boolean global, List<ColumnSpec> columns) {
        if (global) {
            Wire.writeString(out, columns.get(0).keyspace());
            Wire.writeString(out, columns.get(0).table());
        }
        for (ColumnSpec c : columns) {
            if (!global) {
                Wire.writeString(out, c.keyspace());
                Wire.writeString(out, c.table());
            }
            Wire.writeString(out, c.name());
            c.type().writeOption(out, version);
        }
    }

    /**
     * A stable 16-byte id of these columns (MD5 of keyspace, table, name and type of each), for the v5 result
     * metadata id of PREPARED and EXECUTE.
     */
    public byte[] computeId() {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            for (ColumnSpec c : columns) {
                for (String s : new String[] {c.keyspace(), c.table(), c.name(), c.type().cqlName()}) {
                    md5.update(s.getBytes(StandardCharsets.UTF_8));
                    md5.update((byte) 0);
                }
            }
            return md5.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
