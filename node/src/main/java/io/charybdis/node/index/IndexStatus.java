package io.charybdis.node.index;

import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.TableMetadata;

/** Whether this node's copy of a native index is built (queryable; shown by {@code system."IndexInfo"}). */
public interface IndexStatus {
    boolean isBuilt(TableMetadata table, IndexMetadata index);

    /**
     * Completes once a new index's build knows whether the table was empty (then the index is built already, as
     * Cassandra builds the index of an empty table at once) or goes on in the background.
     */
    default java.util.concurrent.CompletableFuture<Void> whenStarted(TableMetadata table, IndexMetadata index) {
        return java.util.concurrent.CompletableFuture.completedFuture(null);
    }

    /** Completes once the index is built (at once when it is, or when this node maintains no indexes). */
    default java.util.concurrent.CompletableFuture<Void> whenBuilt(TableMetadata table, IndexMetadata index) {
        return java.util.concurrent.CompletableFuture.completedFuture(null);
    }

    /** For nodes without index maintenance (tests of the CQL layer alone): every index counts as built. */
    IndexStatus ALL_BUILT = (t, i) -> true;
}
