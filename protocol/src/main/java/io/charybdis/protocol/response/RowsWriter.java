package io.charybdis.protocol.response;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

import java.nio.ByteBuffer;

/**
 * Writes a Rows result without an object per row: values go straight into a buffer as [bytes].
 *
 * <pre>
 *   RowsWriter w = new RowsWriter(alloc, version);           // reusable, one per shard/connection
 *   w.begin(metadata, options.skipMetadata(), null, null);
 *   for each row: w.value(..) ... (exactly metadata.columnCount() values)
 *   w.pagingState(state);                                     // any time before finish, if more pages
 *   Envelope env = Responses.to(alloc, version, stream).rows(w);   // or ByteBuf body = w.finish()
 * </pre>
 *
 * Implementation notes: row values are written to their own buffer while the metadata, whose paging state may
 * only be known at the end, is written at {@link #finish} into a small head buffer; the body is the composite of
 * the two, so row bytes are never copied before the encoder writes them out. The row count is the number of
 * values divided by the column count; finishing in the middle of a row is an error.
 */
public final class RowsWriter {
    public static final int KIND_ROWS = 0x0002;

    private final ByteBufAllocator alloc;
    private final ProtocolVersion version;
    private ResultMetadata metadata;
    private boolean skipMetadata;
    private byte[] pagingState;
    private byte[] newMetadataId;
    private ByteBuf rows;
    private long valueCount;

    public RowsWriter(ByteBufAllocator alloc, ProtocolVersion version) {
        this.alloc = alloc;
        this.version = version;
    }

    public ProtocolVersion version() {
        return version;
    }

    /**
     * Starts a result.
     *
     * @param skipMetadata  the client asked to skip metadata (NO_METADATA flag: only flags, count, paging state)
     * @param pagingState   non-null sets HAS_MORE_PAGES; can also be given later with {@link #pagingState}
     * @param newMetadataId v5: non-null sets METADATA_CHANGED (the client's result metadata id is stale)
     */
    public RowsWriter begin(ResultMetadata md, boolean skipMetadata, byte[] pagingState, byte[] newMetadataId) {
        if (rows != null) {
            throw new IllegalStateException("begin() while a result is in progress; finish() or abort() first");
        }
        this.metadata = md;
        this.skipMetadata = skipMetadata;
        this.pagingState = pagingState;
        this.newMetadataId = newMetadataId;
        this.valueCount = 0;
        this.rows = alloc.buffer();
        return this;
    }

    public RowsWriter pagingState(byte[] state) {
        this.pagingState = state;
        return this;
    }

    /** A value; null writes a null. The buffer is read from position to limit, not consumed. */
    public RowsWriter value(ByteBuffer v) {
        if (v == null) {
            return nullValue();
        }
        ensureActive();
        int length = v.remaining();
        rows.writeInt(length);
        if (v.hasArray()) {
            rows.writeBytes(v.array(), v.arrayOffset() + v.position(), length); // no duplicate to allocate
        } else {
            rows.writeBytes(v.duplicate());
        }
        valueCount++;
        return this;
    }

    /** An 8-byte value (bigint, timestamp, ...), written with no intermediate buffer. */
    public RowsWriter longValue(long v) {
        ensureActive();
        rows.writeInt(8);
        rows.writeLong(v);
        valueCount++;
        return this;
    }

    /** A 4-byte value (int, ...), written with no intermediate buffer. */
    public RowsWriter intValue(int v) {
        ensureActive();
        rows.writeInt(4);
        rows.writeInt(v);
        valueCount++;
        return this;
    }

    /** A value copied from {@code length} bytes of {@code src} at {@code index} (e.g. off-heap cell bytes). */
    public RowsWriter value(ByteBuf src, int index, int length) {
        ensureActive();
        rows.writeInt(length);
        rows.writeBytes(src, index, length);
        valueCount++;
        return this;
    }

    public RowsWriter value(byte[] v) {
        if (v == null) {
            return nullValue();
        }
        ensureActive();
        rows.writeInt(v.length);
        rows.writeBytes(v);
        valueCount++;
        return this;
    }

    public RowsWriter nullValue() {
        ensureActive();
        rows.writeInt(-1);
        valueCount++;
        return this;
    }

    private void ensureActive() {
        if (rows == null) {
            throw new IllegalStateException("begin() first");
        }
    }

    public boolean isActive() {
        return rows != null;
    }

    /** Complete rows written so far. */
    public int rowCount() {
        int columns = metadata.columnCount();
        return columns == 0 ? 0 : (int) (valueCount / columns);
    }

    /** Bytes of row data written so far (for page-size-in-bytes limits). */
    public int rowBytes() {
        return rows == null ? 0 : rows.readableBytes();
    }

    /** The RESULT body: {@code [int kind=Rows]<metadata><rows_count:int><rows>}. Ownership passes to the caller. */
    public ByteBuf finish() {
        return finish(null);
    }

    /**
     * Like {@link #finish()}, with {@code prefix} (tracing id, warnings, ... already written; ownership passes)
     * placed before the result.
     */
    public ByteBuf finish(ByteBuf prefix) {
        ensureActive();
        int columns = metadata.columnCount();
        if (columns > 0 ? valueCount % columns != 0 : valueCount != 0) {
            abort();
            if (prefix != null) {
                prefix.release();
            }
            throw new IllegalStateException("finish() in the middle of a row: values=" + valueCount + " columns="
                    + columns);
        }
        ByteBuf head = prefix != null ? prefix : alloc.buffer(64);
        head.writeInt(KIND_ROWS);
        metadata.write(head, version, skipMetadata, pagingState, newMetadataId);
        head.writeInt(rowCount());
        ByteBuf body = rows;
        rows = null;
        CompositeByteBuf composite = alloc.compositeBuffer(2);
        composite.addComponents(true, head, body);
        return composite;
    }

    /** Drops the result in progress, releasing its buffer. */
    public void abort() {
        if (rows != null) {
            rows.release();
            rows = null;
        }
    }
}
