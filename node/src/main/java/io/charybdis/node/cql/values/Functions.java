package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The native scalar functions Cassandra 5.0 provides in the {@code system} keyspace: time and uuid functions,
 * the {@code <type>AsBlob}/{@code blobAs<type>} conversions. Lookup is by lower-cased name; overloads are
 * resolved by argument types.
 */
public final class Functions {
    private final Map<String, List<NativeFunction>> byName = new LinkedHashMap<>();

    public Functions() {
        add("now", List.of(), io.charybdis.protocol.types.NativeType.TIMEUUID, (a, c) -> Values.uuid(TimeUuids.now()));
        add("currenttimeuuid", List.of(), io.charybdis.protocol.types.NativeType.TIMEUUID, (a, c) -> Values.uuid(TimeUuids.now()));
        add("uuid", List.of(), io.charybdis.protocol.types.NativeType.UUID, (a, c) -> Values.uuid(UUID.randomUUID()));
        add("currenttimestamp", List.of(), io.charybdis.protocol.types.NativeType.TIMESTAMP, (a, c) -> Values.bigint(c.nowMicros() / 1000));
        add("currentdate", List.of(), io.charybdis.protocol.types.NativeType.DATE,
                (a, c) -> Values.int32((int) (LocalDate.ofInstant(Instant.ofEpochMilli(c.nowMicros() / 1000),
                        ZoneOffset.UTC).toEpochDay() + (1L << 31))));
        add("currenttime", List.of(), io.charybdis.protocol.types.NativeType.TIME,
                (a, c) -> Values.bigint(LocalTime.ofInstant(Instant.ofEpochMilli(c.nowMicros() / 1000),
                        ZoneOffset.UTC).toNanoOfDay()));
        add("mintimeuuid", List.of(io.charybdis.protocol.types.NativeType.TIMESTAMP), io.charybdis.protocol.types.NativeType.TIMEUUID,
                (a, c) -> Values.uuid(TimeUuids.min(a.get(0).getLong(a.get(0).position()))));
        add("maxtimeuuid", List.of(io.charybdis.protocol.types.NativeType.TIMESTAMP), io.charybdis.protocol.types.NativeType.TIMEUUID,
                (a, c) -> Values.uuid(TimeUuids.max(a.get(0).getLong(a.get(0).position()))));
        for (String n : List.of("totimestamp")) {
            add(n, List.of(io.charybdis.protocol.types.NativeType.TIMEUUID), io.charybdis.protocol.types.NativeType.TIMESTAMP,
                    (a, c) -> Values.bigint(TimeUuids.unixMillis(Values.toUuid(a.get(0)))));
        }
        add("totimestamp", List.of(io.charybdis.protocol.types.NativeType.DATE), io.charybdis.protocol.types.NativeType.TIMESTAMP,
                (a, c) -> Values.bigint(DateTimes.toLocalDate(a.get(0).getInt(a.get(0).position())).toEpochDay()
                        * 86_400_000L));
        add("todate", List.of(io.charybdis.protocol.types.NativeType.TIMESTAMP), io.charybdis.protocol.types.NativeType.DATE,
                (a, c) -> dateOfMillis(a.get(0).getLong(a.get(0).position())));
        add("todate", List.of(io.charybdis.protocol.types.NativeType.TIMEUUID), io.charybdis.protocol.types.NativeType.DATE,
                (a, c) -> dateOfMillis(TimeUuids.unixMillis(Values.toUuid(a.get(0)))));
        for (String n : List.of("tounixtimestamp")) {
            add(n, List.of(io.charybdis.protocol.types.NativeType.TIMEUUID), io.charybdis.protocol.types.NativeType.BIGINT,
                    (a, c) -> Values.bigint(TimeUuids.unixMillis(Values.toUuid(a.get(0)))));
        }
        add("tounixtimestamp", List.of(io.charybdis.protocol.types.NativeType.TIMESTAMP), io.charybdis.protocol.types.NativeType.BIGINT, (a, c) -> a.get(0).duplicate());
        add("tounixtimestamp", List.of(io.charybdis.protocol.types.NativeType.DATE), io.charybdis.protocol.types.NativeType.BIGINT,
                (a, c) -> Values.bigint(DateTimes.toLocalDate(a.get(0).getInt(a.get(0).position())).toEpochDay()
                        * 86_400_000L));
        for (NativeType t : NativeType.values()) {
            if (t == NativeType.EMPTY || t == NativeType.BLOB) {
                continue;
            }
            String name = t.cqlName();
            for (String fn : List.of(name + "asblob", name + "_as_blob")) {
                add(fn, List.of(t), io.charybdis.protocol.types.NativeType.BLOB, (a, c) -> a.get(0).duplicate());
            }
            for (String fn : List.of("blobas" + name, "blob_as_" + name)) {
                add(fn, List.of(io.charybdis.protocol.types.NativeType.BLOB), t, (a, c) -> {
                    try {
                        t.validate(a.get(0));
                    } catch (RuntimeException e) {
                        throw new InvalidRequestException("In call to function system." + fn
                                + ", value 0x" + java.util.HexFormat.of().formatHex(Values.bytes(a.get(0)))
                                + " is not a valid binary representation for type " + name);
                    }
                    return a.get(0).duplicate();
                });
            }
        }
        addMathFunctions();
        addFloorFunctions();
        add("varcharasblob", List.of(io.charybdis.protocol.types.NativeType.TEXT), io.charybdis.protocol.types.NativeType.BLOB, (a, c) -> a.get(0).duplicate());
        add("blobasvarchar", List.of(io.charybdis.protocol.types.NativeType.BLOB), io.charybdis.protocol.types.NativeType.TEXT, (a, c) -> a.get(0).duplicate());
        add("varchar_as_blob", List.of(io.charybdis.protocol.types.NativeType.TEXT), io.charybdis.protocol.types.NativeType.BLOB, (a, c) -> a.get(0).duplicate());
        add("blob_as_varchar", List.of(io.charybdis.protocol.types.NativeType.BLOB), io.charybdis.protocol.types.NativeType.TEXT, (a, c) -> a.get(0).duplicate());
        // Cassandra 5.0 names every native function in snake case too (CASSANDRA-18037), the old names still work
        for (Map.Entry<String, String> alias : SNAKE_CASE.entrySet()) {
            for (NativeFunction f : List.copyOf(byName.getOrDefault(alias.getKey(), List.of()))) {
                byName.computeIfAbsent(alias.getValue(), k -> new ArrayList<>()).add(new NativeFunction(
                        alias.getValue(), f.argTypes(), f.returnType(), f.calledOnNullInput(), f.impl()));
            }
        }
    }

    /** Cassandra 5.0's snake-case names of the time functions, by their older names. */
    private static final Map<String, String> SNAKE_CASE = Map.of(
            "currenttimeuuid", "current_timeuuid",
            "currenttimestamp", "current_timestamp",
            "currentdate", "current_date",
            "currenttime", "current_time",
            "mintimeuuid", "min_timeuuid",
            "maxtimeuuid", "max_timeuuid",
            "totimestamp", "to_timestamp",
            "todate", "to_date",
            "tounixtimestamp", "to_unix_timestamp");

    /** Whether {@code name} is fromJson under either of its names. */
    public static boolean isFromJson(String name) {
        return name.equals("fromjson") || name.equals("from_json");
    }

    /** Whether {@code name} is toJson under either of its names. */
    public static boolean isToJson(String name) {
        return name.equals("tojson") || name.equals("to_json");
    }

    /**
     * Cassandra 5.0's floor of timestamps, dates, timeuuids and times by a duration, optionally from a starting time;
     * registered in the order Cassandra lists them in its error messages.
     */
    private void addFloorFunctions() {
        NativeType ts = NativeType.TIMESTAMP;
        NativeType date = NativeType.DATE;
        NativeType tu = NativeType.TIMEUUID;
        NativeType dur = NativeType.DURATION;
        add("floor", List.of(ts, dur, ts), ts, (a, c) -> Values.bigint(TimeFloor.floor(TimeFloor.timestampMillis(
                a.get(0)), TimeFloor.forTimestamp(a.get(1)), TimeFloor.timestampMillis(a.get(2)))));
        add("floor", List.of(date, dur), date, (a, c) -> TimeFloor.date(TimeFloor.floor(TimeFloor.dateMillis(a.get(0)),
                TimeFloor.forDate(a.get(1)), 0)));
        add("floor", List.of(date, dur, date), date, (a, c) -> TimeFloor.date(TimeFloor.floor(TimeFloor.dateMillis(
                a.get(0)), TimeFloor.forDate(a.get(1)), TimeFloor.dateMillis(a.get(2)))));
        add("floor", List.of(tu, dur, ts), ts, (a, c) -> Values.bigint(TimeFloor.floor(TimeFloor.timeuuidMillis(
                a.get(0)), TimeFloor.forTimestamp(a.get(1)), TimeFloor.timestampMillis(a.get(2)))));
        add("floor", List.of(ts, dur), ts, (a, c) -> Values.bigint(TimeFloor.floor(TimeFloor.timestampMillis(a.get(0)),
                TimeFloor.forTimestamp(a.get(1)), 0)));
        add("floor", List.of(tu, dur), ts, (a, c) -> Values.bigint(TimeFloor.floor(TimeFloor.timeuuidMillis(a.get(0)),
                TimeFloor.forTimestamp(a.get(1)), 0)));
        add("floor", List.of(NativeType.TIME, dur), NativeType.TIME, (a, c) -> Values.bigint(TimeFloor.floorTime(
                a.get(0).getLong(a.get(0).position()), TimeFloor.duration(a.get(1)))));
    }

    /** Cassandra 5.0's abs, exp, log, log10 and round, for every numeric type, returning the argument's type. */
    private void addMathFunctions() {
        for (NativeType t : List.of(NativeType.TINYINT, NativeType.SMALLINT, NativeType.INT, NativeType.BIGINT,
                NativeType.VARINT, NativeType.DECIMAL, NativeType.FLOAT, NativeType.DOUBLE, NativeType.COUNTER)) {
            // an empty value (no bytes, not null) gives null, as Cassandra's functions over a composed null
            add("abs", List.of(t), t, (a, c) -> empty(a) ? null : t.decompose(abs(t.compose(a.get(0)))));
            if (t == NativeType.DECIMAL) {
                // decimals are computed to 32 significant digits, as Cassandra's DecimalType does
                add("exp", List.of(t), t, (a, c) -> empty(a) ? null : t.decompose(
                        DecimalMath.exp((java.math.BigDecimal) t.compose(a.get(0)))));
                add("log", List.of(t), t, (a, c) -> empty(a) ? null : t.decompose(
                        DecimalMath.log((java.math.BigDecimal) t.compose(a.get(0)))));
                add("log10", List.of(t), t, (a, c) -> empty(a) ? null : t.decompose(
                        DecimalMath.log10((java.math.BigDecimal) t.compose(a.get(0)))));
            } else {
                add("exp", List.of(t), t, (a, c) -> empty(a) ? null
                        : fromDouble(t, Math.exp(toDouble(t.compose(a.get(0))))));
                add("log", List.of(t), t, (a, c) -> empty(a) ? null
                        : fromDouble(t, Math.log(toDouble(t.compose(a.get(0))))));
                add("log10", List.of(t), t, (a, c) -> empty(a) ? null
                        : fromDouble(t, Math.log10(toDouble(t.compose(a.get(0))))));
            }
            add("round", List.of(t), t, (a, c) -> empty(a) ? null : t.decompose(round(t.compose(a.get(0)))));
        }
    }

    private static boolean empty(List<ByteBuffer> args) {
        return args.get(0).remaining() == 0;
    }

    private static double toDouble(Object n) {
        return ((Number) n).doubleValue();
    }

    private static Object abs(Object n) {
        return switch (n) {
            case Byte b -> (byte) Math.abs(b);
            case Short s -> (short) Math.abs(s);
            case Integer i -> Math.abs(i);
            case Long l -> Math.abs(l);
            case Float f -> Math.abs(f);
            case Double d -> Math.abs(d);
            case java.math.BigInteger bi -> bi.abs();
            case java.math.BigDecimal bd -> bd.abs();
            default -> throw new IllegalArgumentException(String.valueOf(n));
        };
    }

    private static Object round(Object n) {
        return switch (n) {
            case Float f -> (float) Math.round(f);
            case Double d -> (double) Math.round(d);
            case java.math.BigDecimal bd -> bd.setScale(0, java.math.RoundingMode.HALF_UP);
            default -> n;
        };
    }

    private static ByteBuffer fromDouble(NativeType t, double d) {
        return switch (t) {
            case TINYINT -> t.decompose((byte) d);
            case SMALLINT -> t.decompose((short) d);
            case INT -> t.decompose((int) d);
            case BIGINT, COUNTER -> t.decompose((long) d);
            case VARINT -> t.decompose(java.math.BigDecimal.valueOf(d).toBigInteger());
            case DECIMAL -> t.decompose(java.math.BigDecimal.valueOf(d));
            case FLOAT -> t.decompose((float) d);
            default -> t.decompose(d);
        };
    }

    private static ByteBuffer dateOfMillis(long millis) {
        // Cassandra truncates towards zero: the last millisecond of 1969 is 1970-01-01
        return Values.int32((int) (millis / 86_400_000L + (1L << 31)));
    }

    private void add(String name, List<DataType> args, DataType ret, NativeFunction.Impl impl) {
        byName.computeIfAbsent(name, k -> new ArrayList<>()).add(new NativeFunction(name, args, ret, false, impl));
    }

    public List<NativeFunction> overloads(String name) {
        return byName.getOrDefault(name, List.of());
    }

    public boolean exists(String name) {
        return byName.containsKey(name);
    }

    /** Binds a function call in a term position (a value of a receiver of type {@code receiverType}). */
    /** The native aggregates, which Cassandra refuses as terms (in WHERE, in values). */
    private static final java.util.Set<String> AGGREGATES = java.util.Set.of("count", "sum", "avg", "min", "max");

    public BoundValue bindCall(Term.FunctionCall call, String receiverName, DataType receiverType, TermBinder binder) {
        String name = call.function().name();
        if (AGGREGATES.contains(name) && (call.function().keyspace() == null
                || call.function().keyspace().equals("system"))) {
            throw new InvalidRequestException("Aggregation function are not supported in the where clause");
        }
        if (isFromJson(name)) {
            if (call.args().size() != 1) {
                throw new InvalidRequestException("fromJson() may only be called with a single argument");
            }
            BoundValue text = binder.bind(call.args().get(0), "fromjson(" + receiverName + ")", NativeType.TEXT);
            return ctx -> {
                ByteBuffer t = text.bind(ctx);
                if (t == null || t == Values.UNSET) {
                    return t;
                }
                Object json;
                try {
                    json = Json.parse(Values.toText(t));
                } catch (Json.ParseException e) {
                    throw new io.charybdis.node.cql.exceptions.FunctionFailureException("execution of "
                            + "'system.fromjson[text]' failed: " + e.getMessage(), "system", "fromjson",
                            List.of("text"));
                }
                try {
                    return Json.toValue(json, receiverType, receiverName);
                } catch (InvalidRequestException e) {
                    // as Cassandra: the function fails with the value's MarshalException
                    throw new io.charybdis.node.cql.exceptions.FunctionFailureException(
                            "org.apache.cassandra.serializers.MarshalException: "
                                    + Json.conversionMessage(e, receiverName), "system", "fromjson", List.of("text"));
                }
            };
        }
        if (call.function().keyspace() != null && !call.function().keyspace().equals("system")) {
            throw new InvalidRequestException("Unknown function " + call.function().toCql() + " called");
        }
        List<NativeFunction> candidates = overloads(name);
        if (candidates.isEmpty() && name.equals("token") && binder.partitionKeyTypes() != null) {
            // as Cassandra: the arguments are checked before the result's fit to its receiver
            BoundValue token = tokenTerm(call, binder);
            if (FunctionResolver.acceptsValuesOf(receiverType, NativeType.BIGINT)) {
                return token;
            }
        }
        if (candidates.isEmpty() && name.equals("token")
                && !receiverType.equals(io.charybdis.protocol.types.NativeType.BIGINT)) {
            // token() is a bigint (with the Murmur3 partitioner), whatever its arguments
            throw new InvalidRequestException("Type error: cannot assign result of function system.token (type "
                    + "bigint) to " + receiverName + " (type " + receiverType.cqlName() + ")");
        }
        if (candidates.isEmpty()) {
            throw new InvalidRequestException("Unknown function " + call.function().toCql() + " called");
        }
        return bindResolved(call, receiverName, receiverType, binder);
    }

    /**
     * {@code token(values...)} as a value ({@code INSERT ... VALUES (1, token(1234))}): the token those values have
     * as the table's partition key, its arguments typed by the key's columns, as Cassandra's token function is.
     */
    private static BoundValue tokenTerm(Term.FunctionCall call, TermBinder binder) {
        List<DataType> keyTypes = binder.partitionKeyTypes();
        if (call.args().size() != keyTypes.size()) {
            throw new InvalidRequestException("Invalid number of arguments in call to function system.token: "
                    + keyTypes.size() + " required but " + call.args().size() + " provided");
        }
        BoundValue[] args = new BoundValue[keyTypes.size()];
        for (int i = 0; i < args.length; i++) {
            Term arg = call.args().get(i);
            if (arg instanceof Term.Literal lit && !Literals.assignable(lit, keyTypes.get(i))) {
                throw new InvalidRequestException("Type error: " + FunctionResolver.text(arg) + " cannot be passed as "
                        + "argument " + i + " of function system.token of type " + keyTypes.get(i).cqlName());
            }
            args[i] = binder.bind(arg, "arg" + i + "(system.token)", keyTypes.get(i));
        }
        return ctx -> {
            ByteBuffer[] values = new ByteBuffer[args.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = args[i].bind(ctx);
                if (values[i] == Values.UNSET) {
                    throw new InvalidRequestException("Invalid unset value for argument in call to function token");
                }
                if (values[i] == null) {
                    return null;
                }
            }
            return Values.bigint(io.charybdis.node.cql.keys.Murmur3.token(
                    io.charybdis.node.cql.keys.PartitionKeyCodec.compose(values)));
        };
    }

    /**
     * Binds a call-like term (a function call, a CAST, an operation, a unary minus) whose value goes to a receiver of
     * type {@code receiverType}: the overload is resolved as Cassandra resolves it, its result must fit the receiver,
     * and each argument is bound to its parameter ({@code arg0(system.f)}).
     */
    public BoundValue bindResolved(Term term, String receiverName, DataType receiverType, TermBinder binder) {
        FunctionResolver.Call call = callOf(term);
        NativeFunction fn = resolver.resolve(call, receiverType);
        if (FunctionResolver.returnMatch(fn.returnType(), receiverType) == FunctionResolver.Match.NOT) {
            if (call.kind() == FunctionResolver.Kind.OPERATION) {
                throw new InvalidRequestException("Type error: cannot assign result of operation " + call.operator()
                        + " (type " + Types.cqlName(fn.returnType()) + ") to " + receiverName + " (type "
                        + Types.cqlName(receiverType) + ")");
            }
            throw new InvalidRequestException("Type error: cannot assign result of function system." + fn.name()
                    + " (type " + Types.cqlName(fn.returnType()) + ") to " + receiverName + " (type "
                    + Types.cqlName(receiverType) + ")");
        }
        List<BoundValue> args = new ArrayList<>(call.args().size());
        for (int i = 0; i < call.args().size(); i++) {
            args.add(binder.bind(call.args().get(i), "arg" + i + "(system." + fn.name() + ")", fn.argTypes().get(i)));
        }
        BoundValue value = FunctionResolver.apply(fn, args);
        if (NON_DETERMINISTIC.contains(fn.name())) {
            // one value per execution, whichever step of it (routing, condition, write) asks
            return ctx -> ctx.once(value, value::bind);
        }
        return value;
    }

    /** The functions whose every call gives a new value (not derived from the statement's time). */
    private static final java.util.Set<String> NON_DETERMINISTIC = java.util.Set.of("now", "currenttimeuuid",
            "current_timeuuid", "uuid");

    /** The resolver of calls in term positions (over these functions, casts and operators). */
    public FunctionResolver resolver() {
        return resolver;
    }

    private final FunctionResolver resolver = new FunctionResolver(this::callOf);

    /** A term as a call to resolve among overloads, or null when it is no such call (or one resolved otherwise). */
    public FunctionResolver.Call callOf(Term term) {
        switch (term) {
            case Term.FunctionCall fc -> {
                String name = fc.function().name();
                String ks = fc.function().keyspace();
                if (ks != null && !ks.equals("system") || isFromJson(name) || overloads(name).isEmpty()) {
                    return null;
                }
                return new FunctionResolver.Call(FunctionResolver.Kind.FUNCTION, ks == null ? name : ks + "." + name,
                        null, overloads(name), fc.args());
            }
            case Term.Cast c -> {
                NativeType target = NativeType.fromCqlName(c.type().type().cqlName());
                return new FunctionResolver.Call(FunctionResolver.Kind.FUNCTION, "system.cast_as_" + target.cqlName(),
                        null, io.charybdis.node.cql.statements.Casts.castFunctions(target), List.of(c.term()));
            }
            case Term.BinaryOp op -> {
                return new FunctionResolver.Call(FunctionResolver.Kind.OPERATION, "system."
                        + Operations.functionName(op.op()), op.op().symbol(), Operations.overloads(op.op()),
                        List.of(operand(op.left()), operand(op.right())));
            }
            case Term.Negation n -> {
                return new FunctionResolver.Call(FunctionResolver.Kind.NEGATION, "system._negate", "-",
                        Operations.negations(), List.of(operand(n.term())));
            }
            default -> {
                return null;
            }
        }
    }

    /** An operand: a parenthesised single term ({@code (-1)}) is the term itself. */
    private static Term operand(Term t) {
        return t instanceof Term.TupleLiteral tl && tl.elements().size() == 1 ? tl.elements().get(0) : t;
    }

    private boolean returnsType(Term.FunctionCall call, DataType type) {
        for (NativeFunction fn : overloads(call.function().name())) {
            if (fn.argTypes().size() == call.args().size() && compatible(fn.returnType(), type)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a value of type {@code value} may be passed where {@code receiver} is expected. */
    public static boolean fits(DataType value, DataType receiver) {
        return compatible(value, receiver);
    }

    static boolean compatible(DataType value, DataType receiver) {
        if (value.equals(receiver)) {
            return true;
        }
        TypeKind v = Types.kind(value);
        TypeKind r = Types.kind(receiver);
        return r == TypeKind.BLOB && v == TypeKind.BLOB
                || (r == TypeKind.TEXT && v == TypeKind.ASCII)
                || (r == TypeKind.UUID && v == TypeKind.TIMEUUID);
    }
}
