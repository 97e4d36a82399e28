package io.charybdis.node.system;

import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.TableMetadata;

import java.nio.ByteBuffer;
import java.util.List;

/** A virtual table whose rows a {@link Filler} computes from the schema and the node on every read. */
final class ComputedTable implements VirtualTable {
    @FunctionalInterface
    interface Filler {
        void fill(RowsBuilder out, Schema schema, NodeInfo node);
    }

    private final TableMetadata metadata;
    private final Filler filler;

    ComputedTable(TableMetadata metadata, Filler filler) {
        this.metadata = metadata;
        this.filler = filler;
    }

    /** A table that exists for clients to query but has no rows on this node (peers of a single node, ...). */
    static ComputedTable empty(TableMetadata metadata) {
        return new ComputedTable(metadata, (out, schema, node) -> {
        });
    }

    @Override
    public TableMetadata metadata() {
        return metadata;
    }

    @Override
    public List<ByteBuffer[]> rows(Schema schema, NodeInfo node) {
        RowsBuilder out = new RowsBuilder(metadata);
        filler.fill(out, schema, node);
        return out.build();
    }

    @Override
    public String toString() {
        return metadata.toString();
    }
}
