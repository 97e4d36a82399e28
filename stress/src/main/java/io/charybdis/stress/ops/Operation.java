package io.charybdis.stress.ops;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * One kind of operation (WRITE, READ, a user query): turns a partition seed into a statement and judges the
 * result. Implementations keep per-thread generators, so each load thread gets its own instance from
 * {@link Workload#newOperations()}.
 */
public interface Operation {

    /** The name in the report: WRITE, READ, COUNTER_WRITE, COUNTER_READ, or the user query's name. */
    String name();

    Statement<?> bind(long seed);

    /**
     * The number of rows the operation touched, or -1 when a read that had to find data found none (cassandra-stress
     * counts those as failures and retries them unless read validation is skipped).
     */
    int rows(AsyncResultSet result);

    /** Partitions touched per operation (1 for the predefined operations). */
    default int partitions() {
        return 1;
    }
}
