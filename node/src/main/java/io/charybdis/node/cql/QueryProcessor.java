package io.charybdis.node.cql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.exceptions.SyntaxException;
import io.charybdis.node.cql.exceptions.TruncateException;
import io.charybdis.node.cql.exceptions.UnauthorizedException;
import io.charybdis.node.cql.statements.BatchExecution;
import io.charybdis.node.cql.statements.ModificationExecution;
import io.charybdis.node.cql.statements.SchemaStatements;
import io.charybdis.node.cql.statements.SelectExecution;
import io.charybdis.node.cql.syntax.AuthStatement;
import io.charybdis.node.cql.statements.RequestTimeout;
import io.charybdis.node.cql.values.TermBinder;
import io.charybdis.node.cql.syntax.BatchStatement;
import io.charybdis.node.cql.syntax.CqlParser;
import io.charybdis.node.cql.syntax.CqlSyntaxException;
import io.charybdis.node.cql.syntax.DescribeStatement;
import io.charybdis.node.cql.syntax.ModificationStatement;
import io.charybdis.node.cql.syntax.ParsedStatement;
import io.charybdis.node.cql.syntax.QualifiedName;
import io.charybdis.node.cql.syntax.SchemaStatement;
import io.charybdis.node.cql.syntax.SelectStatement;
import io.charybdis.node.cql.syntax.Statement;
import io.charybdis.node.cql.syntax.TruncateStatement;
import io.charybdis.node.cql.syntax.UseStatement;
import io.charybdis.node.cql.values.BindVariable;
import io.charybdis.node.cql.values.Functions;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.SchemaChange;
import io.charybdis.node.schema.SchemaManager;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.node.system.VirtualTable;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.request.QueryOptions;
import io.charybdis.protocol.response.ResultMetadata;
import io.charybdis.cluster.Coordinator;
import io.charybdis.storage.TableId;
import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Entry point of the CQL layer: parses, analyzes against the current schema, caches prepared statements, and
 * executes. Analysis is redone transparently when the schema has changed since a statement was prepared.
 */
public final class QueryProcessor {
    /** A prepared statement as the cache keeps it. */
    public static final class Prepared {
        private final byte[] id;
        private final String query;
        private final String keyspace;
        private final ParsedStatement parsed;
        private volatile CqlStatement statement;
        private volatile UUID schemaVersion;

        Prepared(byte[] id, String query, String keyspace, ParsedStatement parsed, CqlStatement statement,
                 UUID schemaVersion) {
            this.id = id;
            this.query = query;
            this.keyspace = keyspace;
            this.parsed = parsed;
            this.statement = statement;
            this.schemaVersion = schemaVersion;
        }

        public byte[] id() {
            return id.clone();
        }

        public CqlStatement statement() {
            return statement;
        }

        public byte[] resultMetadataId() {
            return statement.resultMetadata().computeId();
        }

        public String query() {
            return query;
        }
    }

    /** Describe support is plugged in by the node (it lives in its own package). */
    public interface Describer {
        CqlStatement describe(DescribeStatement stmt, String currentKeyspace);
    }

    private final SchemaManager schemas;
    private final Coordinator coordinator;
    private final BiFunction<String, String, VirtualTable> virtualTables;
    private final Supplier<NodeInfo> node;
    private final Functions functions = new Functions();
    private final SchemaStatements ddl;
    private final TimestampSource timestamps = new TimestampSource();
    private final Cache<ByteBuffer, Prepared> prepared;
    private volatile Describer describer;
    /** Which native indexes this node has built (queries through an index not built fail, as on Cassandra). */
    private volatile io.charybdis.node.index.IndexStatus indexStatus = io.charybdis.node.index.IndexStatus.ALL_BUILT;
    private final Guardrails guardrails = new Guardrails();
    /** CassandraAuthorizer's per-statement checks; null with AllowAllAuthorizer (no per-request work then). */
    private volatile io.charybdis.node.auth.StatementAuthorizer authorizer;
    /** Roles and permissions statements; null until the node plugs in its auth service. */
    private volatile io.charybdis.node.auth.AuthStatements authStatements;

    /** The data centres of this node and of every endpoint of the ring it knows. */
    public java.util.Set<String> dataCenters() {
        var md = coordinator.metadata();
        java.util.Set<String> dcs = new java.util.TreeSet<>();
        dcs.add(md.self().datacenter());
        for (var e : md.ring().endpoints()) {
            dcs.add(e.datacenter());
        }
        return dcs;
    }

    public QueryProcessor(SchemaManager schemas, Coordinator coordinator,
                          BiFunction<String, String, VirtualTable> virtualTables, Supplier<NodeInfo> node,
                          long preparedCacheBytes) {
        this.schemas = schemas;
        this.coordinator = coordinator;
        this.virtualTables = virtualTables;
        this.node = node;
        this.ddl = new SchemaStatements(schemas);
        this.ddl.setDataCenters(this::dataCenters);
        this.prepared = Caffeine.newBuilder()
                .maximumWeight(Math.max(1, preparedCacheBytes))
                .weigher((ByteBuffer k, Prepared p) -> 256 + p.query.length() * 2)
                .build();
    }

    /** drop_compact_storage_enabled: whether ALTER TABLE ... DROP COMPACT STORAGE is allowed (false at first). */
    public void setDropCompactStorageEnabled(boolean enabled) {
        ddl.setDropCompactStorageEnabled(enabled);
    }

    /** The request limits (batch sizes, tombstones per read) this processor applies; Cassandra's defaults at first. */
    public Guardrails guardrails() {
        return guardrails;
    }

    public void setIndexStatus(io.charybdis.node.index.IndexStatus status) {
        this.indexStatus = status;
    }

    public void setDescriber(Describer describer) {
        this.describer = describer;
    }

    /** Plugs in roles and permissions: the statements, and the authorizer (null for AllowAllAuthorizer). */
    public void setAuth(io.charybdis.node.auth.AuthStatements statements,
                        io.charybdis.node.auth.StatementAuthorizer authorizer) {
        this.authStatements = statements;
        this.authorizer = authorizer;
    }

    public SchemaManager schemas() {
        return schemas;
    }

    public TimestampSource timestamps() {
        return timestamps;
    }

    // ---- entry points ------------------------------------------------------------------------------------------

    public CompletableFuture<ResultMessage> query(String cql, QueryOptions options, ClientState client,
                                                  ByteBufAllocator alloc, ProtocolVersion version) {
        return query(cql, options, client, alloc, version, null);
    }

    /** A QUERY request; {@code trace}: its tracing session, null when it is not traced. */
    public CompletableFuture<ResultMessage> query(String cql, QueryOptions options, ClientState client,
                                                  ByteBufAllocator alloc, ProtocolVersion version, TraceState trace) {
        if (trace != null) {
            trace.trace("Parsing " + cql);
        }
        ParsedStatement ps = parse(cql);
        String ks = options.keyspace() != null ? options.keyspace() : client.keyspace();
        if (trace != null) {
            trace.trace("Preparing statement");
        }
        CqlStatement stmt = analyze(ps, ks, client);
        List<ByteBuffer> values = bindValues(stmt.bindVariables(), options, ps.bindMarkerCount(), true);
        if (client.metrics() != null) {
            client.metrics().increment(io.charybdis.node.metrics.ShardRequestMetrics.STATEMENTS_PARSED);
        }
        if (authorizer == null) {
            return run(stmt, options, client, alloc, version, values, trace); // AllowAllAuthorizer: nothing to check
        }
        return authorized(ps.statement(), ks, client, () -> run(stmt, options, client, alloc, version, values,
                trace));
    }

    /**
     * Runs {@code then} once the client's role may run {@code s} (at once when no check applies or the role's
     * permissions are cached). Only called with CassandraAuthorizer.
     */
    private CompletableFuture<ResultMessage> authorized(Statement s, String keyspace, ClientState client,
                                                        Supplier<CompletableFuture<ResultMessage>> then) {
        io.charybdis.node.auth.StatementAuthorizer a = authorizer;
        CompletableFuture<Void> check = a.check(s, keyspace, client, schemas.schema());
        return check == null ? then.get() : check.thenCompose(v -> then.get());
    }

    public Prepared prepare(String cql, String keyspace, ClientState client) {
        String ks = keyspace != null ? keyspace : client.keyspace();
        byte[] id = computeId(cql, ks);
        ByteBuffer key = ByteBuffer.wrap(id);
        Prepared existing = prepared.getIfPresent(key);
        if (existing != null) {
            refresh(existing, client);
            return existing;
        }
        ParsedStatement ps = parse(cql);
        if (ps.statement() instanceof UseStatement || ps.statement() instanceof DescribeStatement) {
            // allowed, as in Cassandra
        }
        Schema schema = schemas.schema();
        CqlStatement stmt = analyze(ps, ks, client);
        Prepared p = new Prepared(id, cql, ks, ps, stmt, schema.version());
        prepared.put(key, p);
        return p;
    }

    public Prepared prepared(byte[] id) {
        Prepared p = prepared.getIfPresent(ByteBuffer.wrap(id));
        return p;
    }

    public CompletableFuture<ResultMessage> execute(Prepared p, QueryOptions options, ClientState client,
                                                    ByteBufAllocator alloc, ProtocolVersion version) {
        return execute(p, options, client, alloc, version, null);
    }

    /** An EXECUTE request; {@code trace}: its tracing session, null when it is not traced. */
    public CompletableFuture<ResultMessage> execute(Prepared p, QueryOptions options, ClientState client,
                                                    ByteBufAllocator alloc, ProtocolVersion version,
                                                    TraceState trace) {
        refresh(p, client);
        CqlStatement stmt = p.statement;
        List<ByteBuffer> values = bindValues(stmt.bindVariables(), options, p.parsed.bindMarkerCount(), false);
        if (authorizer == null) {
            return run(stmt, options, client, alloc, version, values, trace); // AllowAllAuthorizer: nothing to check
        }
        return authorized(p.parsed.statement(), p.keyspace, client,
                () -> run(stmt, options, client, alloc, version, values, trace));
    }

    /** One statement of a BATCH request: a query string or a prepared statement, with its values. */
    public record BatchItem(String query, Prepared prepared, List<ByteBuffer> values, List<String> names) {
    }

    public CompletableFuture<ResultMessage> batch(BatchStatement.Type type, List<BatchItem> items,
                                                  QueryOptions options, ClientState client, ByteBufAllocator alloc,
                                                  ProtocolVersion version) {
        return batch(type, items, options, client, alloc, version, null);
    }

    /** A BATCH request; {@code trace}: its tracing session, null when it is not traced. */
    public CompletableFuture<ResultMessage> batch(BatchStatement.Type type, List<BatchItem> items, QueryOptions options,
                                                  ClientState client, ByteBufAllocator alloc,
                                                  ProtocolVersion version, TraceState trace) {
        List<BatchExecution.Child> children = new ArrayList<>();
        String ks = options.keyspace() != null ? options.keyspace() : client.keyspace();
        List<CompletableFuture<Void>> checks = null;
        for (BatchItem item : items) {
            CqlStatement stmt;
            Statement syntax;
            String itemKeyspace = ks;
            if (item.prepared() != null) {
                refresh(item.prepared(), client);
                stmt = item.prepared().statement;
                syntax = item.prepared().parsed.statement();
                itemKeyspace = item.prepared().keyspace;
            } else {
                if (trace != null) {
                    trace.trace("Parsing " + item.query());
                }
                ParsedStatement ps = parse(item.query());
                if (trace != null) {
                    trace.trace("Preparing statement");
                }
                stmt = analyze(ps, ks, client);
                syntax = ps.statement();
            }
            io.charybdis.node.auth.StatementAuthorizer a = authorizer;
            CompletableFuture<Void> check = a == null ? null : a.check(syntax, itemKeyspace, client, schemas.schema());
            if (check != null) {
                if (checks == null) {
                    checks = new ArrayList<>();
                }
                checks.add(check);
            }
            if (!(stmt instanceof ModificationExecution m)) {
                throw new InvalidRequestException("Invalid statement in batch: only UPDATE, INSERT and DELETE "
                        + "statements are allowed.");
            }
            List<ByteBuffer> values = item.values() == null ? List.of() : item.values();
            if (values.size() != stmt.bindVariables().size()) {
                throw new InvalidRequestException("There were " + stmt.bindVariables().size() + " markers(?) in CQL "
                        + "but " + values.size() + " bound variables");
            }
            children.add(new BatchExecution.Child(m, values));
        }
        List<ModificationExecution> statements = new ArrayList<>();
        for (BatchExecution.Child c : children) {
            statements.add(c.statement());
        }
        BatchExecution.validateType(type, statements);
        BatchExecution.validateConditions(statements, false);
        StatementMetrics.batchStarted(client.metrics(), children, options);
        BatchExecution batch = new BatchExecution(coordinator, type != BatchStatement.Type.UNLOGGED, List.of(),
                guardrails);
        Supplier<CompletableFuture<ResultMessage>> go = () -> {
            long now = timestamps.next();
            QueryContext ctx = new QueryContext(alloc, version, options, client, List.of(), now,
                    nowSeconds(options, now)).traced(trace);
            return batch.execute(ctx, children).thenApply(r -> ResultMessage.withWarnings(r, ctx.warnings()));
        };
        return checks == null ? go.get()
                : CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new)).thenCompose(v -> go.get());
    }

    private static int nowSeconds(QueryOptions options, long nowMicros) {
        return options != null && options.hasNowInSeconds() ? options.nowInSeconds() : (int) (nowMicros / 1_000_000);
    }

    private CompletableFuture<ResultMessage> run(CqlStatement stmt, QueryOptions options, ClientState client,
                                                 ByteBufAllocator alloc, ProtocolVersion version,
                                                 List<ByteBuffer> values, TraceState trace) {
        StatementMetrics.started(client.metrics(), stmt, options);
        long now = timestamps.next();
        QueryContext ctx = new QueryContext(alloc, version, options, client, values, now, nowSeconds(options, now))
                .traced(trace);
        java.time.Duration timeout = stmt.timeout(ctx);
        if (timeout != null && timeout.isZero()) {
            return CompletableFuture.failedFuture(stmt.timeoutError(ctx).get()); // no time to do anything in
        }
        CompletableFuture<ResultMessage> result = stmt.execute(ctx);
        if (timeout != null) {
            result = RequestTimeout.within(result, timeout, stmt.timeoutError(ctx));
        }
        return result.thenApply(r -> ResultMessage.withWarnings(r, ctx.warnings()));
    }

    // ---- analysis ------------------------------------------------------------------------------------------------

    private static ParsedStatement parse(String cql) {
        try {
            return CqlParser.prepare(cql);
        } catch (CqlSyntaxException e) {
            if (e.invalidRequest()) {
                throw new InvalidRequestException(e.getMessage());
            }
            throw new SyntaxException(e.getMessage());
        }
    }

    private void refresh(Prepared p, ClientState client) {
        UUID version = schemas.schema().version();
        if (!version.equals(p.schemaVersion)) {
            p.statement = analyze(p.parsed, p.keyspace, client);
            p.schemaVersion = version;
        }
    }

    static byte[] computeId(String query, String keyspace) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            if (keyspace != null) {
                md.update(keyspace.getBytes(StandardCharsets.UTF_8));
            }
            md.update(query.getBytes(StandardCharsets.UTF_8));
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code query}: a QUERY request, whose wrong number of values Cassandra words differently from EXECUTE's. */
    private List<ByteBuffer> bindValues(List<BindVariable> vars, QueryOptions options, int markers, boolean query) {
        List<ByteBuffer> values = options.values() == null ? List.of() : options.values();
        List<String> names = options.valueNames();
        if (names != null && !names.isEmpty()) {
            List<ByteBuffer> ordered = new ArrayList<>(vars.size());
            for (BindVariable v : vars) {
                int i = names.indexOf(v.name());
                if (i < 0) {
                    throw new InvalidRequestException("Invalid value for bind variable " + v.name() + ": not provided");
                }
                ordered.add(values.get(i));
            }
            values = ordered;
        }
        if (values.size() != markers && query) {
            throw new InvalidRequestException("Invalid amount of bind variables");
        }
        if (values.size() != markers) {
            throw new InvalidRequestException("There were " + markers + " markers(?) in CQL but " + values.size()
                    + " bound variables");
        }
        List<ByteBuffer> out = new ArrayList<>(values.size());
        for (ByteBuffer v : values) {
            out.add(v == QueryOptions.UNSET ? io.charybdis.node.cql.values.Values.UNSET : v);
        }
        return out;
    }

    public CqlStatement analyze(ParsedStatement ps, String keyspace, ClientState client) {
        Statement s = ps.statement();
        int markers = ps.bindMarkerCount();
        Schema schema = schemas.schema();
        switch (s) {
            case SelectStatement sel -> {
                TableResolution t = resolve(schema, sel.table(), keyspace);
                return new SelectExecution(sel, t.table, t.virtual, coordinator, schemas::schema, node, markers,
                        functions, guardrails, indexStatus);
            }
            case ModificationStatement mod -> {
                TableResolution t = resolve(schema, mod.table(), keyspace);
                if (t.table.isVirtual() && authorizer != null) {
                    // Cassandra checks MODIFY before refusing writes to system tables: answer in that order
                    try {
                        return new ModificationExecution(mod, t.table, coordinator, markers, functions);
                    } catch (InvalidRequestException refused) {
                        return simple(ctx -> CompletableFuture.failedFuture(refused));
                    }
                }
                return new ModificationExecution(mod, t.table, coordinator, markers, functions);
            }
            case BatchStatement batch -> {
                return batchStatement(batch, schema, keyspace, markers);
            }
            case UseStatement use -> {
                return simple(ctx -> {
                    if (schemas.schema().keyspace(use.keyspace()) == null
                            && (!schemas.catchUp() || schemas.schema().keyspace(use.keyspace()) == null)) {
                        throw new InvalidRequestException("Keyspace '" + use.keyspace() + "' does not exist");
                    }
                    ctx.client().setKeyspace(use.keyspace());
                    return CompletableFuture.completedFuture(new ResultMessage.SetKeyspace(use.keyspace()));
                });
            }
            case TruncateStatement tr -> {
                TableResolution t = resolve(schema, tr.table(), keyspace);
                if (t.virtual != null || t.table.isVirtual()) {
                    UnauthorizedException refused = new UnauthorizedException("Cannot TRUNCATE table " + t.table
                            + ": system tables cannot be truncated");
                    if (authorizer == null) {
                        throw refused;
                    }
                    return simple(ctx -> CompletableFuture.failedFuture(refused)); // after the MODIFY check
                }
                // system_auth's tables are stored: a superuser may truncate them, as in Cassandra
                TableId id = new TableId(t.table.id());
                // the native indexes' tables first: a write between the two leaves a stale entry (skipped at read),
                // never a live row without its entry
                List<TableId> indexTables = t.table.indexes().values().stream()
                        .map(i -> new TableId(i.tableId(t.table.id()))).toList();
                return simple(ctx -> {
                    CompletableFuture<Void> done;
                    if (indexTables.isEmpty()) {
                        done = coordinator.truncate(id, ctx.home());
                    } else {
                        CompletableFuture<Void> indexes = coordinator.truncate(indexTables.get(0), null);
                        for (TableId it : indexTables.subList(1, indexTables.size())) {
                            indexes = indexes.thenCompose(x -> coordinator.truncate(it, null));
                        }
                        done = indexes.thenCompose(x -> coordinator.truncate(id, ctx.home()));
                    }
                    return done.handle((v, e) -> {
                        if (e != null) {
                            Throwable cause = e instanceof java.util.concurrent.CompletionException
                                    && e.getCause() != null ? e.getCause() : e;
                            if (cause instanceof io.charybdis.cluster.UnavailableException ue) {
                                throw ue; // some node is down: Cassandra answers Unavailable at ALL
                            }
                            if (cause instanceof io.charybdis.cluster.TruncateFailedException tf) {
                                throw new TruncateException(tf.getMessage(), tf);
                            }
                            throw new TruncateException("Error during truncate: " + e.getMessage(), e);
                        }
                        return ResultMessage.VOID;
                    });
                });
            }
            case SchemaStatement ddlStmt -> {
                if (ddlStmt instanceof io.charybdis.node.cql.syntax.SchemaStatement.CreateView view) {
                    // Cassandra refuses these while preparing, before it looks at anything else
                    SchemaStatements.checkViewKeyspace(view, keyspace);
                    if (markers > 0) {
                        throw new InvalidRequestException(
                                "Bind variables are not allowed in CREATE MATERIALIZED VIEW statements");
                    }
                }
                io.charybdis.node.auth.StatementAuthorizer.preventSystemSchemaChange(ddlStmt, keyspace);
                return simple(ctx -> {
                    io.charybdis.node.schema.KeyspaceMetadata before =
                            ddlStmt instanceof io.charybdis.node.cql.syntax.SchemaStatement.AlterKeyspace ak
                                    ? schemas.schema().keyspace(ak.keyspace()) : null;
                    io.charybdis.node.schema.KeyspaceMetadata dropping =
                            ddlStmt instanceof io.charybdis.node.cql.syntax.SchemaStatement.DropKeyspace dk
                                    ? schemas.schema().keyspace(dk.keyspace()) : null;
                    SchemaChange change = ddl.execute(ddlStmt, keyspace);
                    if (change != null && change.target() == SchemaChange.Target.KEYSPACE
                            && change.change() != SchemaChange.Change.DROPPED) {
                        warnReplicationAboveNodes(ctx, change.keyspace());
                        var after = schemas.schema().keyspace(change.keyspace());
                        if (before != null && after != null && totalReplicas(after) > totalReplicas(before)) {
                            ctx.warn("When increasing replication factor you need to run a full (-full) repair to "
                                    + "distribute the data.");
                        }
                    }
                    ResultMessage done = change == null ? ResultMessage.VOID : new ResultMessage.SchemaChanged(change);
                    CompletableFuture<ResultMessage> answered = CompletableFuture.completedFuture(done);
                    if (change != null && ddlStmt instanceof io.charybdis.node.cql.syntax.SchemaStatement.CreateIndex) {
                        // as on Cassandra, the index of an empty table answers at once; a small table's build is
                        // done before the answer too (Cassandra's schema change alone takes about as long), so a
                        // query right after it finds the index built. Bounded: a longer build goes on in the
                        // background, and queries meanwhile fail as Cassandra's do.
                        io.charybdis.node.schema.TableMetadata t = schemas.schema().table(change.keyspace(),
                                change.name());
                        if (t != null) {
                            io.charybdis.node.index.IndexStatus status = indexStatus;
                            CompletableFuture<?>[] starts = t.indexes().values().stream()
                                    .map(i -> status.whenBuilt(t, i)).toArray(CompletableFuture[]::new);
                            CompletableFuture<ResultMessage> f = CompletableFuture.allOf(starts)
                                    .completeOnTimeout(null, 1500, java.util.concurrent.TimeUnit.MILLISECONDS)
                                    .handle((v, e) -> done);
                            answered = io.charybdis.cluster.Home.resume(f, ctx.home());
                        }
                    }
                    io.charybdis.node.auth.AuthStatements as = authStatements;
                    if (as == null || change == null) {
                        return answered;
                    }
                    return answered.thenCompose(r -> as.schemaChanged(change, ctx.client(),
                            dropping == null ? List.of() : dropping.tables().keySet()).thenApply(v -> r));
                });
            }
            case DescribeStatement d -> {
                Describer ds = describer;
                if (ds == null) {
                    throw new InvalidRequestException("DESCRIBE is not available");
                }
                return ds.describe(d, keyspace);
            }
            case AuthStatement a -> {
                io.charybdis.node.auth.AuthStatements as = authStatements;
                if (as == null) {
                    throw new InvalidRequestException("Role and permission management is not available on this "
                            + "node");
                }
                return as.statement(a, keyspace);
            }
        }
    }

    private CqlStatement batchStatement(BatchStatement batch, Schema schema, String keyspace, int markers) {
        if (batch.attributes() != null && batch.attributes().ttl() != null) {
            throw new InvalidRequestException("Global TTL on the BATCH statement is not supported.");
        }
        List<ModificationExecution> children = new ArrayList<>();
        List<BindVariable> vars = null;
        for (ModificationStatement m : batch.statements()) {
            if (batch.attributes() != null && batch.attributes().timestamp() != null && m.attributes() != null
                    && m.attributes().timestamp() != null) {
                throw new InvalidRequestException("Timestamp must be set either on BATCH or individual statements");
            }
            TableResolution t = resolve(schema, m.table(), keyspace);
            ModificationExecution exec = new ModificationExecution(m, t.table, coordinator, markers, functions);
            children.add(exec);
            List<BindVariable> v = exec.bindVariables();
            if (vars == null) {
                vars = new ArrayList<>(v);
            } else {
                for (int i = 0; i < v.size(); i++) {
                    if (vars.get(i).name().startsWith("expr(")) {
                        vars.set(i, v.get(i));
                    }
                }
            }
        }
        List<BindVariable> variables = vars == null ? new ArrayList<>() : vars;
        boolean logged = batch.type() != BatchStatement.Type.UNLOGGED;
        if (batch.type() == BatchStatement.Type.COUNTER && batch.attributes() != null
                && batch.attributes().timestamp() != null) {
            throw new InvalidRequestException("Cannot provide custom timestamp for counter BATCH");
        }
        BatchExecution.validateType(batch.type(), children);
        io.charybdis.node.cql.syntax.Term ts = batch.attributes() == null ? null : batch.attributes().timestamp();
        // ScyllaDB's BEGIN BATCH USING TIMEOUT d: its marker joins the children's
        io.charybdis.node.cql.syntax.Term timeoutTerm = batch.attributes() == null ? null
                : batch.attributes().timeout();
        RequestTimeout timeout = null;
        if (timeoutTerm != null) {
            TermBinder tb = new TermBinder(children.isEmpty() ? keyspace : children.get(0).keyspace(),
                    children.isEmpty() ? null : children.get(0).table(), markers, functions);
            timeout = RequestTimeout.of(timeoutTerm, tb);
            List<BindVariable> own = tb.variables();
            for (int i = 0; i < variables.size(); i++) {
                if (variables.get(i).name().startsWith("expr(") && !own.get(i).name().startsWith("expr(")) {
                    variables.set(i, own.get(i));
                }
            }
        }
        RequestTimeout batchTimeout = timeout;
        // BEGIN BATCH USING TIMESTAMP ?: the marker is the batch's own, a bigint among the children's markers
        io.charybdis.node.cql.values.BoundValue tsMarker = null;
        if (ts != null && !(ts instanceof io.charybdis.node.cql.syntax.Term.Literal)) {
            TermBinder tb = new TermBinder(children.isEmpty() ? keyspace : children.get(0).keyspace(),
                    children.isEmpty() ? null : children.get(0).table(), markers, functions);
            tsMarker = tb.bind(ts, "[timestamp]", io.charybdis.protocol.types.NativeType.BIGINT);
            List<BindVariable> own = tb.variables();
            for (int i = 0; i < variables.size() && i < own.size(); i++) {
                if (variables.get(i).name().startsWith("expr(") && !own.get(i).name().startsWith("expr(")) {
                    variables.set(i, own.get(i));
                }
            }
        }
        io.charybdis.node.cql.values.BoundValue batchTs = tsMarker;
        io.charybdis.protocol.response.WriteType writeType = batch.type() == BatchStatement.Type.COUNTER
                ? io.charybdis.protocol.response.WriteType.COUNTER : logged
                ? io.charybdis.protocol.response.WriteType.BATCH : io.charybdis.protocol.response.WriteType.UNLOGGED_BATCH;
        BatchExecution.validateConditions(children, ts != null);
        BatchExecution exec = new BatchExecution(coordinator, logged, variables, guardrails);
        // as Cassandra: the routing key's markers when every statement is on one table (the last marker of each
        // partition key column)
        List<Integer> batchPkIndexes = List.of();
        if (!children.isEmpty() && children.stream().allMatch(m -> m.tableMetadata() == children.get(0).tableMetadata())) {
            List<String> names = new ArrayList<>();
            for (BindVariable v : variables) {
                names.add(v.name());
            }
            batchPkIndexes = io.charybdis.node.cql.statements.SelectExecution.pkBindIndexes(
                    children.get(0).tableMetadata(), names);
        }
        List<Integer> pkIndexes = batchPkIndexes;
        return new CqlStatement() {
            public List<BindVariable> bindVariables() {
                return variables;
            }

            public List<Integer> partitionKeyBindIndexes() {
                return pkIndexes;
            }

            public java.time.Duration timeout(QueryContext ctx) {
                return batchTimeout == null ? null : batchTimeout.resolve(ctx);
            }

            public java.util.function.Supplier<io.charybdis.node.cql.exceptions.RequestTimeoutException> timeoutError(
                    QueryContext ctx) {
                return RequestTimeout.writeError(ctx, writeType);
            }

            public CompletableFuture<ResultMessage> execute(QueryContext ctx) {
                QueryContext c = ctx;
                if (ts instanceof io.charybdis.node.cql.syntax.Term.Literal lit) {
                    long micros = Long.parseLong(lit.text());
                    c = new QueryContext(ctx.alloc(), ctx.version(), QueryOptionsWithTimestamp.of(ctx.options(), micros),
                            ctx.client(), ctx.bind().values(), ctx.bind().nowMicros(), ctx.nowInSeconds());
                } else if (batchTs != null) {
                    java.nio.ByteBuffer v = batchTs.bind(ctx.bind());
                    if (v == null) {
                        return CompletableFuture.failedFuture(
                                new InvalidRequestException("Invalid null value of timestamp"));
                    }
                    if (v != io.charybdis.node.cql.values.Values.UNSET) {
                        long micros = v.getLong(v.position());
                        c = new QueryContext(ctx.alloc(), ctx.version(),
                                QueryOptionsWithTimestamp.of(ctx.options(), micros), ctx.client(), ctx.bind().values(),
                                ctx.bind().nowMicros(), ctx.nowInSeconds());
                    }
                }
                List<BatchExecution.Child> kids = new ArrayList<>();
                for (ModificationExecution m : children) {
                    kids.add(new BatchExecution.Child(m, c.bind().values()));
                }
                QueryContext fc = c;
                return exec.execute(c, kids).thenApply(r -> {
                    if (fc != ctx && fc.warnings() != null) {
                        fc.warnings().forEach(ctx::warn);
                    }
                    return r;
                });
            }
        };
    }

    private record TableResolution(TableMetadata table, VirtualTable virtual) {
    }

    private TableResolution resolve(Schema schema, QualifiedName name, String currentKeyspace) {
        String ks = name.keyspace() != null ? name.keyspace() : currentKeyspace;
        if (ks == null) {
            throw new InvalidRequestException("No keyspace has been specified. USE a keyspace, or explicitly specify "
                    + "keyspace.tablename");
        }
        KeyspaceMetadata k = schema.keyspace(ks);
        if ((k == null || k.table(name.name()) == null) && schemas.catchUp()) {
            k = schemas.schema().keyspace(ks); // created through another node, and now installed here too
        }
        if (k == null) {
            throw new InvalidRequestException("keyspace " + ks + " does not exist");
        }
        TableMetadata t = k.table(name.name());
        if (t == null) {
            // ScyllaDB's system_schema.scylla_* tables: served to its drivers, not listed
            io.charybdis.node.system.VirtualTable scylla = io.charybdis.node.system.ScyllaSchemaTables.find(ks,
                    name.name());
            if (scylla != null) {
                return new TableResolution(scylla.metadata(), scylla);
            }
            throw new InvalidRequestException("table " + name.name() + " does not exist");
        }
        VirtualTable vt = t.isVirtual() ? virtualTables.apply(ks, t.name()) : null;
        if (t.isVirtual() && vt == null) {
            throw new InvalidRequestException("Table " + ks + "." + t.name() + " is not readable on this node");
        }
        return new TableResolution(t, vt);
    }

    private static CqlStatement simple(java.util.function.Function<QueryContext, CompletableFuture<ResultMessage>> f) {
        return new CqlStatement() {
            public List<BindVariable> bindVariables() {
                return List.of();
            }

            public CompletableFuture<ResultMessage> execute(QueryContext ctx) {
                return f.apply(ctx);
            }
        };
    }

    private static int totalReplicas(io.charybdis.node.schema.KeyspaceMetadata ks) {
        return io.charybdis.cluster.locator.ReplicationStrategy.of(ks.replication()).replicationFactor();
    }

    /** Cassandra's warning when a keyspace asks for more replicas than the ring (or a data centre) has nodes. */
    private void warnReplicationAboveNodes(QueryContext ctx, String keyspace) {
        io.charybdis.node.schema.KeyspaceMetadata ks = schemas.schema().keyspace(keyspace);
        if (ks == null) {
            return;
        }
        var strategy = io.charybdis.cluster.locator.ReplicationStrategy.of(ks.replication());
        var nodes = coordinator.metadata().ring().endpoints();
        if (strategy instanceof io.charybdis.cluster.locator.NetworkTopologyStrategy nts) {
            for (var dc : new java.util.TreeMap<>(nts.datacenters()).entrySet()) {
                long inDc = nodes.stream().filter(e -> e.datacenter().equals(dc.getKey())).count();
                if (inDc > 0 && dc.getValue() > inDc) {
                    ctx.warn("Your replication factor " + dc.getValue() + " for keyspace " + keyspace
                            + " is higher than the number of nodes " + inDc + " for datacenter " + dc.getKey());
                }
            }
        } else if (strategy instanceof io.charybdis.cluster.locator.ReplicationStrategy.Simple simple
                && simple.rf() > nodes.size()) {
            ctx.warn("Your replication factor " + simple.rf() + " for keyspace " + keyspace
                    + " is higher than the number of nodes " + nodes.size());
        }
    }

    public ResultMetadata emptyMetadata() {
        return ResultMetadata.EMPTY;
    }
}
