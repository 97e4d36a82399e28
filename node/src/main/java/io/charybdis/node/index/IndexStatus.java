package io.charybdis.node.index;

import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.TableMetadata;

/** Whether this node's copy of a native index is built (queryable; shown by {@code system."IndexInfo"}). */
public interface IndexStatus {
    boolean isBuilt(TableMetadata table, IndexMetadata index);

    /** For nodes without index maintenance (tests of the CQL layer alone): every index counts as built. */
    IndexStatus ALL_BUILT = (t, i) -> true;
}
