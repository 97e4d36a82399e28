package io.charybdis.stress.ops;

import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * One execution of an operation, ready to send (and to send again on a retry).
 *
 * @param seed       the (first) partition's seed, for error messages
 * @param partitions the partitions written, or for a read the partitions it asks for
 * @param rows       the rows written, or {@link #FROM_RESULT} for a read, whose rows are counted from its result
 * @param mustFind   a read that finds no rows fails (cassandra-stress's read validation of its predefined reads)
 */
public record Bound(Statement<?> statement, long seed, int partitions, int rows, boolean mustFind) {

    public static final int FROM_RESULT = -1;

    public static Bound write(Statement<?> statement, long seed, int partitions, int rows) {
        return new Bound(statement, seed, partitions, rows, false);
    }

    public static Bound read(Statement<?> statement, long seed, boolean mustFind) {
        return new Bound(statement, seed, 1, FROM_RESULT, mustFind);
    }

    public boolean isRead() {
        return rows == FROM_RESULT;
    }
}
