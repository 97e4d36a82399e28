package io.charybdis.node.cql;

import io.charybdis.protocol.request.QueryOptions;

/** Options with the default timestamp replaced (BATCH ... USING TIMESTAMP). */
final class QueryOptionsWithTimestamp {
    private QueryOptionsWithTimestamp() {
    }

    static QueryOptions of(QueryOptions o, long timestamp) {
        return new QueryOptions(o.consistency(), o.values(), o.valueNames(), o.skipMetadata(), o.pageSize(),
                o.pagingState(), o.serialConsistency(), timestamp, o.keyspace(), o.nowInSeconds());
    }
}
