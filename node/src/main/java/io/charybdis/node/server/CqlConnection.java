package io.charybdis.node.server;

import io.charybdis.node.metrics.ShardRequestMetrics;

import io.charybdis.node.cql.ClientState;
import io.charybdis.node.cql.QueryProcessor;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.TraceState;
import io.charybdis.node.tracing.Tracing;
import io.charybdis.node.cql.exceptions.AlreadyExistsException;
import io.charybdis.node.cql.exceptions.CqlException;
import io.charybdis.node.cql.exceptions.UnpreparedException;
import io.charybdis.node.schema.SchemaChange;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.ErrorCode;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.ProtocolVersionException;
import io.charybdis.protocol.frame.EnvelopeDecoder;
import io.charybdis.protocol.frame.EnvelopeEncoder;
import io.charybdis.protocol.frame.V5Framing;
import io.charybdis.protocol.request.BatchChild;
import io.charybdis.protocol.request.QueryOptions;
import io.charybdis.protocol.request.Request;
import io.charybdis.protocol.request.Requests;
import io.charybdis.protocol.response.PreparedMetadata;
import io.charybdis.protocol.response.ResponseBuilder;
import io.charybdis.protocol.response.Responses;
import io.charybdis.protocol.response.ColumnSpec;
import io.charybdis.protocol.types.DataType;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One client connection: the STARTUP/auth handshake, then requests dispatched to the {@link QueryProcessor}.
 * Requests on different streams run concurrently; each response is written on the connection's event loop as soon
 * as it is ready (responses may come back out of order, as the protocol allows).
 *
 * <p>Overload: the connection is counted against the connection limits when it opens ({@link ClientLimits}, closed
 * at once if over one), and its {@link InboundGate} decides when it reads and which requests it serves. Every
 * response to a request goes through {@link #reply}, which tells the gate once the write completed or failed.
 */
final class CqlConnection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(CqlConnection.class);
    static final String THROW_ON_OVERLOAD = "THROW_ON_OVERLOAD";

    private final CqlServer server;
    private final int shard;
    private final ClientState client;
    private final ClientLimits limits;
    private final ShardRequestMetrics metrics;
    private ProtocolVersion version;
    private boolean ready;
    private boolean authenticated;
    private boolean throwOnOverload;
    private ClientLimits.Endpoint endpoint;
    private InboundGate gate;
    private boolean rejected;
    private ChannelHandlerContext ctx;

    CqlConnection(CqlServer server, int shard) {
        this.server = server;
        this.shard = shard;
        this.client = new ClientState(server.authenticator().requiresLogin() ? null : "anonymous");
        this.authenticated = !server.authenticator().requiresLogin();
        this.limits = server.limits();
        this.metrics = server.requestMetrics(shard);
        this.client.countOn(metrics);
    }

    ProtocolVersion version() {
        return version == null ? ProtocolVersion.V4 : version;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        InetAddress address = ctx.channel().remoteAddress() instanceof InetSocketAddress isa
                ? isa.getAddress() : InetAddress.getLoopbackAddress();
        endpoint = limits.connect(address);
        String refusal = limits.refusal(endpoint);
        if (refusal != null) {
            limits.countRefused();
            server.connectionRefused(refusal);
            ctx.close();
            return;
        }
        gate = new InboundGate(ctx, limits, endpoint, server.rateLimiter(), this::serve);
        server.connectionOpened(ctx.channel());
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (endpoint != null) {
            limits.disconnect(endpoint);
        }
        if (gate != null) {
            gate.close();
            server.connectionClosed(ctx.channel());
            ctx.fireChannelInactive();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (gate != null) {
            gate.writabilityChanged(ctx.channel().isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Envelope env) || gate == null || rejected) {
            ReferenceCountUtil.release(msg);
            return;
        }
        gate.offer(env);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (gate != null) {
            gate.readComplete();
        }
        ctx.fireChannelReadComplete();
    }

    /** This connection's gate; null until it is admitted. */
    InboundGate gate() {
        return gate;
    }

    private void serve(Envelope env) {
        int stream = env.streamId();
        if (rejected) {
            env.release();
            return;
        }
        if (version == null && env.version() != ProtocolVersion.MAX_SUPPORTED && !server.allowOlderProtocols()) {
            // native_transport_allow_older_protocols: false, in Cassandra's words (its ProtocolVersion.decode)
            version = env.version();
            rejected = true;
            env.release();
            ctx.writeAndFlush(Responses.to(ctx.alloc(), version, stream).error(ErrorCode.PROTOCOL_ERROR,
                    "Rejecting Protocol Version " + version.code() + "/v" + version.code() + " < "
                            + ProtocolVersion.MAX_SUPPORTED.code() + "/v" + ProtocolVersion.MAX_SUPPORTED.code() + "."))
                    .addListener(f -> ctx.close());
            return;
        }
        int cost = InboundGate.cost(env);
        InboundGate.Admission admission = gate.admit(cost, throwOnOverload);
        if (admission != InboundGate.Admission.ADMITTED) {
            env.release();
            metrics.increment(ShardRequestMetrics.REQUESTS_SHED);
            writeError(ctx, stream, 0, ErrorCode.OVERLOADED, gate.overloadedMessage(admission));
            return;
        }
        boolean tracing = env.hasFlag(Envelope.TRACING);
        Request request;
        try {
            if (version == null) {
                version = env.version();
            }
            request = Requests.decode(env);
        } catch (ProtocolException e) {
            writeError(ctx, stream, cost, ErrorCode.PROTOCOL_ERROR, e.getMessage());
            return;
        } finally {
            env.release();
        }
        try {
            dispatch(ctx, stream, cost, tracing, request);
        } catch (Throwable t) {
            writeFailure(ctx, stream, cost, t);
        }
    }

    /** Writes the response to a request of {@code cost} bytes, and tells the gate once it is written or failed. */
    private void reply(ChannelHandlerContext ctx, Object response, int cost) {
        metrics.increment(ShardRequestMetrics.REQUESTS_SERVED);
        ChannelFuture f = ctx.writeAndFlush(response);
        if (cost > 0) {
            f.addListener(done -> gate.answered(cost));
        }
    }

    private void dispatch(ChannelHandlerContext ctx, int stream, int cost, boolean tracing, Request request) {
        switch (request) {
            case Request.Options o -> reply(ctx, Responses.to(ctx.alloc(), version(), stream)
                    .supported(server.supportedOptions(shard)), cost);
            case Request.Startup s -> startup(ctx, stream, cost, s);
            case Request.AuthResponse a -> authResponse(ctx, stream, cost, a);
            default -> {
                if (!ready) {
                    writeError(ctx, stream, cost, ErrorCode.PROTOCOL_ERROR,
                            "Unexpected message " + request.getClass().getSimpleName().toUpperCase()
                                    + ", expecting STARTUP or OPTIONS.");
                    return;
                }
                if (!authenticated) {
                    writeError(ctx, stream, cost, ErrorCode.UNAUTHORIZED,
                            "You have not logged in");
                    return;
                }
                execute(ctx, stream, cost, tracing, request);
            }
        }
    }

    private void startup(ChannelHandlerContext ctx, int stream, int cost, Request.Startup s) {
        String compression = s.compression();
        boolean lz4 = false;
        if (compression != null) {
            if (!compression.equals("lz4")) {
                writeError(ctx, stream, cost, ErrorCode.PROTOCOL_ERROR, "Unsupported compression algorithm: "
                        + compression + " (supported: lz4)");
                return;
            }
            lz4 = true;
        }
        ready = true;
        throwOnOverload = "1".equals(s.options().get(THROW_ON_OVERLOAD));
        ResponseBuilder rb = Responses.to(ctx.alloc(), version(), stream);
        Envelope reply = server.authenticator().requiresLogin()
                ? rb.authenticate(server.authenticator().className()) : rb.ready();
        reply(ctx, reply, cost);
        if (version().isAtLeast(ProtocolVersion.V5)) {
            V5Framing.install(ctx.pipeline(), lz4);
        } else if (lz4) {
            ((EnvelopeDecoder) ctx.pipeline().get(EnvelopeDecoder.NAME)).enableLz4();
            ((EnvelopeEncoder) ctx.pipeline().get(EnvelopeEncoder.NAME)).enableLz4();
        }
    }

    private void authResponse(ChannelHandlerContext ctx, int stream, int cost, Request.AuthResponse a) {
        if (!ready || !server.authenticator().requiresLogin()) {
            writeError(ctx, stream, cost, ErrorCode.PROTOCOL_ERROR, "Unexpected AUTH_RESPONSE message");
            return;
        }
        server.authenticator().authenticate(a.token()).whenComplete((user, error) -> ctx.executor().execute(() -> {
            if (error != null) {
                Throwable t = error;
                while ((t instanceof CompletionException || t instanceof java.util.concurrent.ExecutionException)
                        && t.getCause() != null) {
                    t = t.getCause();
                }
                if (t instanceof io.charybdis.node.cql.exceptions.CqlException cql) {
                    writeError(ctx, stream, cost, ErrorCode.BAD_CREDENTIALS, cql.getMessage());
                } else {
                    log.warn("Authentication failed on an internal error", t);
                    writeError(ctx, stream, cost, ErrorCode.BAD_CREDENTIALS, "Unable to perform authentication: "
                            + t.getMessage());
                }
                return;
            }
            client.login(user);
            authenticated = true;
            reply(ctx, Responses.to(ctx.alloc(), version(), stream).authSuccess(null), cost);
        }));
    }

    private void execute(ChannelHandlerContext ctx, int stream, int cost, boolean tracing, Request request) {
        QueryProcessor qp = server.processor();
        long startNanos = System.nanoTime();
        metrics.takeStartedKind();
        Tracing tracer = server.tracing();
        TraceState trace = tracer != null && (tracing || tracer.sampled()) ? beginTrace(ctx, request) : null;
        CompletableFuture<ResultMessage> result;
        try {
            result = start(ctx, stream, cost, request, qp, trace);
        } catch (RuntimeException | Error e) {
            finishTrace(tracer, trace); // a request refused before it ran (syntax, unprepared) is traced too
            throw e;
        }
        if (result == null) {
            return; // answered already (PREPARE, REGISTER)
        }
        // the response names the session only when the client asked for tracing (not when drawn by probability)
        UUID tracingId = tracing && trace != null ? trace.sessionId() : null;
        int kind = metrics.takeStartedKind();
        result.whenComplete((r, err) -> {
            if (ctx.executor().inEventLoop()) {
                respond(ctx, stream, cost, tracingId, r, err, kind, startNanos);
                finishTrace(tracer, trace);
            } else {
                ctx.executor().execute(() -> {
                    respond(ctx, stream, cost, tracingId, r, err, kind, startNanos);
                    finishTrace(tracer, trace);
                });
            }
        });
    }

    /** Starts a request; null when it was answered already. */
    private CompletableFuture<ResultMessage> start(ChannelHandlerContext ctx, int stream, int cost, Request request,
                                                   QueryProcessor qp, TraceState trace) {
        CompletableFuture<ResultMessage> result;
        switch (request) {
            case Request.Query q -> result = qp.query(q.query(), q.options(), client, ctx.alloc(), version(), trace);
            case Request.Prepare p -> {
                QueryProcessor.Prepared prepared = qp.prepare(p.query(), p.keyspace(), client);
                writePrepared(ctx, stream, cost, prepared);
                return null;
            }
            case Request.Execute e -> {
                QueryProcessor.Prepared prepared = qp.prepared(e.statementId());
                if (prepared == null) {
                    throw new UnpreparedException(e.statementId());
                }
                if (trace != null) {
                    traceBoundValues(trace, prepared, e.options());
                }
                result = qp.execute(prepared, e.options(), client, ctx.alloc(), version(), trace);
            }
            case Request.Batch b -> {
                List<QueryProcessor.BatchItem> items = new ArrayList<>();
                for (BatchChild child : b.children()) {
                    switch (child) {
                        case BatchChild.QueryChild qc -> items.add(new QueryProcessor.BatchItem(qc.query(), null,
                                qc.values(), null));
                        case BatchChild.PreparedChild pc -> {
                            QueryProcessor.Prepared prepared = qp.prepared(pc.statementId());
                            if (prepared == null) {
                                throw new UnpreparedException(pc.statementId());
                            }
                            items.add(new QueryProcessor.BatchItem(null, prepared, pc.values(), null));
                        }
                    }
                }
                QueryOptions opts = new QueryOptions(b.consistency(), List.of(), null, false, -1, null,
                        b.serialConsistency(), b.defaultTimestamp(), b.keyspace(), b.nowInSeconds());
                result = qp.batch(switch (b.type()) {
                            case LOGGED -> io.charybdis.node.cql.syntax.BatchStatement.Type.LOGGED;
                            case UNLOGGED -> io.charybdis.node.cql.syntax.BatchStatement.Type.UNLOGGED;
                            case COUNTER -> io.charybdis.node.cql.syntax.BatchStatement.Type.COUNTER;
                        }, items, opts, client,
                        ctx.alloc(), version(), trace);
            }
            case Request.Register r -> {
                server.register(ctx.channel(), r.eventTypes(), this);
                reply(ctx, Responses.to(ctx.alloc(), version(), stream).ready(), cost);
                return null;
            }
            default -> throw new ProtocolException("Unexpected request " + request, stream, false);
        }
        return result;
    }

    /** A tracing session for {@code request}, with the parameters Cassandra records for its kind. */
    private TraceState beginTrace(ChannelHandlerContext ctx, Request request) {
        InetAddress clientAddress = ctx.channel().remoteAddress() instanceof InetSocketAddress isa
                ? isa.getAddress() : null;
        QueryOptions options;
        TraceState t;
        switch (request) {
            case Request.Query q -> {
                t = new TraceState(clientAddress, "Execute CQL3 query").parameter("query", q.query());
                options = q.options();
            }
            case Request.Execute e -> {
                t = new TraceState(clientAddress, "Execute CQL3 prepared query");
                options = e.options();
            }
            case Request.Batch b -> {
                t = new TraceState(clientAddress, "Execute batch of CQL3 queries");
                return t.parameter("consistency_level", b.consistency() == null ? null : b.consistency().name())
                        .parameter("serial_consistency_level", b.serialConsistency() == null ? "SERIAL"
                                : b.serialConsistency().name());
            }
            default -> {
                return null; // REGISTER and the like: nothing to trace
            }
        }
        if (options.pageSize() > 0) {
            t.parameter("page_size", Integer.toString(options.pageSize()));
        }
        return t.parameter("consistency_level", options.consistency() == null ? null : options.consistency().name())
                .parameter("serial_consistency_level", options.serialConsistencyOrDefault().name());
    }

    /**
     * The parameters Cassandra records for a traced EXECUTE: its query and each bound value as a CQL literal,
     * {@code bound_var_<i>_<name>} (a value longer than 1000 characters cut there, as Cassandra cuts it; an unset
     * one as {@code <unset>}).
     */
    private static void traceBoundValues(TraceState trace, QueryProcessor.Prepared prepared, QueryOptions options) {
        trace.parameter("query", prepared.query());
        var variables = prepared.statement().bindVariables();
        List<java.nio.ByteBuffer> values = options.values();
        if (values == null || values.size() != variables.size()) {
            return; // refused by the statement, with its own message
        }
        for (int i = 0; i < variables.size(); i++) {
            var v = variables.get(i);
            java.nio.ByteBuffer value = values.get(i);
            if (v.type() == null) {
                continue;
            }
            if (QueryOptions.isUnset(value)) {
                trace.parameter("bound_var_" + i + "_" + v.name(), "<unset>");
                continue;
            }
            String literal;
            try {
                literal = v.type().toCqlLiteral(value);
            } catch (RuntimeException malformed) {
                continue; // the statement refuses the value with its own message
            }
            if (literal.length() > 1000) {
                literal = literal.substring(0, 1000) + "...'";
            }
            trace.parameter("bound_var_" + i + "_" + v.name(), literal);
        }
    }

    /** Writes a traced request's session once its response is out (nothing when the request was not traced). */
    private static void finishTrace(Tracing tracer, TraceState trace) {
        if (trace != null) {
            trace.complete();
            tracer.write(trace);
        }
    }

    private void respond(ChannelHandlerContext ctx, int stream, int cost, UUID tracingId, ResultMessage r, Throwable err,
                         int kind, long startNanos) {
        metrics.recordLatency(kind, System.nanoTime() - startNanos);
        if (err != null) {
            countFailure(kind, err);
            writeFailure(ctx, stream, cost, err);
            return;
        }
        List<String> warnings = null;
        if (r instanceof ResultMessage.Warned w) {
            warnings = w.warnings();
            r = w.inner();
        }
        ResponseBuilder rb = Responses.to(ctx.alloc(), version(), stream).tracing(tracingId).warnings(warnings);
        Envelope out = switch (r) {
            case ResultMessage.Void v -> rb.voidResult();
            case ResultMessage.SetKeyspace s -> rb.setKeyspace(s.keyspace());
            case ResultMessage.SchemaChanged sc -> rb.schemaChange(toProtocol(sc.change()));
            case ResultMessage.Rows rows -> rb.rows(rows.writer());
            case ResultMessage.Warned w -> rb.voidResult();
        };
        reply(ctx, out, cost);
    }

    /** Counts a statement's timeout, unavailable or shedding as ScyllaDB's coordinator does, by statement kind. */
    private void countFailure(int kind, Throwable t) {
        while ((t instanceof CompletionException || t instanceof java.util.concurrent.ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        boolean range = kind == ShardRequestMetrics.KIND_RANGE_READ;
        boolean read = kind == ShardRequestMetrics.KIND_READ || range;
        switch (t) {
            case io.charybdis.cluster.UnavailableException ue -> metrics.increment(range
                    ? ShardRequestMetrics.RANGE_UNAVAILABLE
                    : read ? ShardRequestMetrics.READ_UNAVAILABLE : ShardRequestMetrics.WRITE_UNAVAILABLE);
            case io.charybdis.cluster.WriteTimeoutException wt -> metrics.increment(ShardRequestMetrics.WRITE_TIMEOUTS);
            case io.charybdis.cluster.ReadTimeoutException rt -> metrics.increment(range
                    ? ShardRequestMetrics.RANGE_TIMEOUTS : ShardRequestMetrics.READ_TIMEOUTS);
            case io.charybdis.node.cql.exceptions.RequestTimeoutException rt -> metrics.increment(!rt.isRead()
                    ? ShardRequestMetrics.WRITE_TIMEOUTS
                    : range ? ShardRequestMetrics.RANGE_TIMEOUTS : ShardRequestMetrics.READ_TIMEOUTS);
            case io.charybdis.storage.ShardOverloadedException oe -> metrics.increment(ShardRequestMetrics.REQUESTS_SHED);
            default -> {
            }
        }
    }

    static io.charybdis.protocol.response.SchemaChange toProtocol(SchemaChange c) {
        return new io.charybdis.protocol.response.SchemaChange(
                io.charybdis.protocol.response.SchemaChange.Change.valueOf(c.change().name()),
                io.charybdis.protocol.response.SchemaChange.Target.valueOf(c.target().name()),
                c.keyspace(), c.name(), c.argTypes());
    }

    private void writePrepared(ChannelHandlerContext ctx, int stream, int cost, QueryProcessor.Prepared p) {
        var stmt = p.statement();
        List<ColumnSpec> vars = new ArrayList<>();
        for (var v : stmt.bindVariables()) {
            vars.add(new ColumnSpec(v.keyspace() == null ? "" : v.keyspace(), v.table() == null ? "" : v.table(),
                    v.name(), v.type() == null ? io.charybdis.protocol.types.NativeType.BLOB : v.type()));
        }
        PreparedMetadata md = PreparedMetadata.of(vars, stmt.partitionKeyBindIndexes());
        byte[] resultId = version().isAtLeast(ProtocolVersion.V5) ? p.resultMetadataId() : null;
        reply(ctx, Responses.to(ctx.alloc(), version(), stream).prepared(p.id(), resultId, md,
                stmt.resultMetadata()), cost);
    }

    private void writeFailure(ChannelHandlerContext ctx, int stream, int cost, Throwable t) {
        while ((t instanceof CompletionException || t instanceof java.util.concurrent.ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        ResponseBuilder rb = Responses.to(ctx.alloc(), version(), stream);
        Envelope out;
        switch (t) {
            case AlreadyExistsException ae -> out = rb.alreadyExists(ae.getMessage(), ae.keyspace(), ae.table());
            case UnpreparedException ue -> out = rb.unprepared(ue.getMessage(), ue.id());
            case io.charybdis.node.cql.exceptions.FunctionFailureException ff -> out = rb.functionFailure(
                    ff.getMessage(), ff.keyspace(), ff.function(), ff.argTypes());
            case io.charybdis.node.cql.exceptions.ReadFailureException rf -> out = rb.readFailure(rf.getMessage(),
                    rf.consistency(), rf.received(), rf.blockFor(), rf.reasons(), false);
            case io.charybdis.cluster.UnavailableException ue -> out = rb.unavailable(ue.getMessage(),
                    io.charybdis.protocol.Consistency.valueOf(ue.consistency().name()), ue.required(), ue.alive());
            case io.charybdis.cluster.NotYetSupportedException ns -> out = rb.error(ErrorCode.INVALID, ns.getMessage());
            case io.charybdis.cluster.WriteTimeoutException wt -> out = rb.writeTimeout(wt.getMessage(),
                    io.charybdis.protocol.Consistency.valueOf(wt.consistency().name()), wt.received(), wt.blockFor(),
                    io.charybdis.protocol.response.WriteType.valueOf(wt.writeType().name()), 0);
            case io.charybdis.cluster.ReadTimeoutException rt -> out = rb.readTimeout(rt.getMessage(),
                    io.charybdis.protocol.Consistency.valueOf(rt.consistency().name()), rt.received(), rt.blockFor(),
                    rt.dataPresent());
            case io.charybdis.node.cql.exceptions.RequestTimeoutException rt -> out = rt.isRead()
                    ? rb.readTimeout(rt.getMessage(), rt.consistency(), rt.received(), rt.blockFor(), false)
                    : rb.writeTimeout(rt.getMessage(), rt.consistency(), rt.received(), rt.blockFor(), rt.writeType(),
                    0);
            case CqlException ce -> out = rb.error(ErrorCode.fromCode(ce.code()), ce.getMessage());
            case io.charybdis.storage.ShardOverloadedException oe -> out = rb.error(ErrorCode.OVERLOADED, oe.getMessage());
            case ProtocolException pe -> out = rb.error(pe.errorCode(), pe.getMessage());
            default -> {
                log.error("Unexpected error on stream {} of {}", stream, ctx.channel(), t);
                out = rb.error(ErrorCode.SERVER_ERROR, t.getClass().getName() + ": " + t.getMessage());
            }
        }
        reply(ctx, out, cost);
    }

    private void writeError(ChannelHandlerContext ctx, int stream, int cost, ErrorCode code, String message) {
        reply(ctx, Responses.to(ctx.alloc(), version(), stream).error(code, message), cost);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof ProtocolVersionException pve) {
            ByteBuf reply = pve.encodeErrorResponse(ctx.alloc());
            ctx.writeAndFlush(reply).addListener(f -> ctx.close());
            return;
        }
        ProtocolException pe = ProtocolException.find(cause);
        if (pe != null) {
            Envelope err = Responses.to(ctx.alloc(), version(), pe.streamId()).error(pe.errorCode(), pe.getMessage());
            if (pe.isFatal()) {
                ctx.writeAndFlush(err).addListener(f -> ctx.close());
            } else {
                ctx.writeAndFlush(err);
            }
            return;
        }
        if (cause instanceof java.io.IOException || cause instanceof javax.net.ssl.SSLException
                || cause.getCause() instanceof javax.net.ssl.SSLException) {
            // includes TLS handshakes that failed (no or an untrusted client certificate, plain text on a TLS port)
            log.debug("Connection {} failed: {}", ctx.channel(), cause.toString());
        } else {
            log.warn("Closing connection {} after an unexpected error", ctx.channel(), cause);
        }
        ctx.close();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
