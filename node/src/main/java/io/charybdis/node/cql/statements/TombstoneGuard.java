package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.Guardrails;
import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.exceptions.ReadFailureException;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.protocol.Consistency;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.read.TombstoneOverwhelmingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

/**
 * tombstone_warn_threshold and tombstone_failure_threshold for SELECT, as Cassandra applies them to each read
 * command: a read that went through more tombstones than the warn threshold adds Cassandra's client warning (and
 * logs it); one that goes beyond the failure threshold is aborted by the storage engine and answered with
 * READ_FAILURE, reason READ_TOO_MANY_TOMBSTONES.
 *
 * <p>The query in the messages is the read command as Cassandra prints it ({@code SELECT * FROM ks.t WHERE k = 1
 * LIMIT 5000 ALLOW FILTERING}: partition key or token range, the page limit), without the clustering slices.
 */
final class TombstoneGuard {
    private static final Logger log = LoggerFactory.getLogger(TombstoneGuard.class);

    private TombstoneGuard() {
    }

    /** Adds the warning for a read that scanned more tombstones than allowed; once per distinct message. */
    static void check(Guardrails guardrails, QueryContext ctx, TableMetadata table, ReadCommand cmd,
                      Restrictions.PartitionKey key, int limit, ReadResult result) {
        int tombstones = result.tombstonesScanned();
        if (tombstones <= guardrails.tombstoneWarn()) {
            return;
        }
        String message = "Read " + result.liveRowsScanned() + " live rows and " + tombstones
                + " tombstone cells for query " + describe(table, cmd, key, limit) + "; token "
                + result.lastScannedToken() + " (see tombstone_warn_threshold)";
        log.warn(message);
        List<String> already = ctx.warnings();
        if (already == null || !already.contains(message)) {
            ctx.warn(message);
        }
    }

    /** The client's error for a read the storage engine aborted; other failures are returned unchanged. */
    static Throwable failure(Throwable err, QueryContext ctx, NodeInfo node, TableMetadata table, ReadCommand cmd,
                             Restrictions.PartitionKey key, int limit) {
        Throwable cause = err;
        while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (!(cause instanceof TombstoneOverwhelmingException t)) {
            return err;
        }
        log.error("Scanned over {} tombstones during query '{}' (last scanned row token was {}); query aborted",
                t.tombstones(), cmd == null ? table.toString() : describe(table, cmd, key, limit), t.token());
        InetAddress address = node != null ? node.listenAddress() : InetAddress.getLoopbackAddress();
        int port = node != null ? node.storagePort() : 7000;
        Consistency cl = ctx.options() != null && ctx.options().consistency() != null ? ctx.options().consistency()
                : Consistency.ONE;
        return new ReadFailureException("Operation failed - received 0 responses and 1 failures: "
                + "READ_TOO_MANY_TOMBSTONES from /" + address.getHostAddress() + ":" + port, cl, 0, 1,
                Map.of(address, ReadFailureException.READ_TOO_MANY_TOMBSTONES));
    }

    /** The read command as Cassandra's ReadCommand.toCQLString prints it (clustering slices left out). */
    static String describe(TableMetadata table, ReadCommand cmd, Restrictions.PartitionKey key, int limit) {
        StringBuilder sb = new StringBuilder("SELECT * FROM ").append(table.keyspace()).append('.').append(table.name());
        List<ColumnMetadata> pk = table.partitionKey();
        if (key != null) {
            sb.append(" WHERE ");
            for (int i = 0; i < pk.size(); i++) {
                if (i > 0) {
                    sb.append(" AND ");
                }
                ColumnMetadata c = pk.get(i);
                java.nio.ByteBuffer v = key.components() != null && i < key.components().length
                        ? key.components()[i] : key.key();
                sb.append(c.name()).append(" = ").append(c.type().toCqlLiteral(v.duplicate()));
            }
        } else {
            String token = tokenFunction(pk);
            String sep = " WHERE ";
            if (cmd.start() != null && cmd.start().token() != Long.MIN_VALUE) {
                sb.append(sep).append(token).append(cmd.start().inclusive() ? " >= " : " > ").append(cmd.start().token());
                sep = " AND ";
            }
            if (cmd.end() != null && cmd.end().token() != Long.MAX_VALUE) {
                sb.append(sep).append(token).append(cmd.end().inclusive() ? " <= " : " < ").append(cmd.end().token());
            }
        }
        if (limit != Integer.MAX_VALUE) {
            sb.append(" LIMIT ").append(limit);
        }
        return sb.append(" ALLOW FILTERING").toString();
    }

    private static String tokenFunction(List<ColumnMetadata> pk) {
        StringBuilder sb = new StringBuilder("token(");
        for (int i = 0; i < pk.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(pk.get(i).name());
        }
        return sb.append(')').toString();
    }
}
