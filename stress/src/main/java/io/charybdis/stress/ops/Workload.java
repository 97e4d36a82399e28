package io.charybdis.stress.ops;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.PrintStream;
import java.util.List;

/** The schema and operations of a run: the predefined tables, or a user profile. */
public interface Workload {

    /** Creates the keyspace and tables if missing; returns true if anything was created. */
    boolean createSchema(CqlSession session, PrintStream out);

    String keyspace();

    /** TRUNCATE of the tables the run writes. */
    void truncate(CqlSession session);

    /** Prepares statements on the session (bound to the keyspace); notes and warnings go to {@code out}. */
    void prepare(CqlSession session, PrintStream out);

    /** The operation kinds, in report order, with their weights. */
    List<String> operationNames();

    double[] weights();

    /** Fresh per-thread operations, in {@link #operationNames()} order. */
    List<Operation> newOperations();

    /** Lines for the Command section of the settings dump (a user profile's definitions); none by default. */
    default void describe(PrintStream out) {
    }
}
