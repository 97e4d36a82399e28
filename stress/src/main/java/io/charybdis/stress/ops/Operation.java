package io.charybdis.stress.ops;

import java.util.function.LongSupplier;

/**
 * One kind of operation (WRITE, READ, a user profile's insert or query): binds statements from partition seeds.
 * Implementations keep per-thread generators, so each load thread gets its own instance from
 * {@link Workload#newOperations()}.
 */
public interface Operation {

    /** The name in the report: WRITE, READ, COUNTER_WRITE, COUNTER_READ, or the user operation's name. */
    String name();

    /**
     * Binds one execution. {@code seeds} yields partition seeds from the population: the predefined operations and
     * user queries take one, a user insert one per partition of its batch.
     */
    Bound bind(LongSupplier seeds);
}
