package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.AlreadyExistsException;
import io.charybdis.node.cql.exceptions.ConfigurationException;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.exceptions.UnauthorizedException;
import io.charybdis.node.cql.syntax.Properties;
import io.charybdis.node.cql.syntax.QualifiedName;
import io.charybdis.node.cql.syntax.SchemaStatement;
import io.charybdis.node.cql.syntax.SchemaStatement.*;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.CompactStorage;
import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.SchemaChange;
import io.charybdis.node.schema.SchemaConstants;
import io.charybdis.node.schema.SchemaManager;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TableOptions;
import io.charybdis.node.schema.TableParams;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.TypeResolver;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.UserType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/** Executes DDL: validates against the current schema with Cassandra's messages, then applies the change. */
public final class SchemaStatements {
    private static final String LOCATOR = "org.apache.cassandra.locator.";

    private final SchemaManager schemas;

    public SchemaStatements(SchemaManager schemas) {
        this.schemas = schemas;
    }

    /** Returns the change made, or null when IF [NOT] EXISTS made it a no-op. */
    public SchemaChange execute(SchemaStatement stmt, String currentKeyspace) {
        List<SchemaChange> events = new ArrayList<>(1);
        SchemaChange[] result = new SchemaChange[1];
        schemas.update(schema -> {
            SchemaChange c = apply(schema, stmt, currentKeyspace, events);
            result[0] = c;
            return c == null ? schema : pending;
        }, events);
        return result[0];
    }

    // set by apply() for update(); DDL runs under the manager's monitor, one at a time
    private Schema pending;

    private SchemaChange apply(Schema schema, SchemaStatement stmt, String currentKs, List<SchemaChange> events) {
        SchemaChange change = switch (stmt) {
            case CreateKeyspace s -> createKeyspace(schema, s);
            case AlterKeyspace s -> alterKeyspace(schema, s);
            case DropKeyspace s -> dropKeyspace(schema, s);
            case CreateTable s -> createTable(schema, s, currentKs);
            case AlterTable s -> alterTable(schema, s, currentKs);
            case DropTable s -> dropTable(schema, s, currentKs);
            case CreateType s -> createType(schema, s, currentKs);
            case AlterType s -> alterType(schema, s, currentKs);
            case DropType s -> dropType(schema, s, currentKs);
            case CreateIndex s -> createIndex(schema, s, currentKs);
            case DropIndex s -> dropIndex(schema, s, currentKs);
            case CreateView s -> {
                checkViewKeyspace(s, currentKs);
                throw unsupported("Materialized views");
            }
            case AlterView s -> missingView(s.view(), s.ifExists(), currentKs);
            case DropView s -> missingView(s.view(), s.ifExists(), currentKs);
            case CreateFunction s -> throw unsupported("User-defined functions");
            case DropFunction s -> dropFunction(schema, "Function", s.function(), s.ifExists(), s.argumentTypes(),
                    currentKs);
            case CreateAggregate s -> createAggregate(schema, s, currentKs);
            case DropAggregate s -> dropFunction(schema, "Aggregate", s.aggregate(), s.ifExists(), s.argumentTypes(),
                    currentKs);
            case CreateTrigger s -> throw unsupported("Triggers");
            case DropTrigger s -> throw unsupported("Triggers");
        };
        if (change != null) {
            events.add(change);
        }
        return change;
    }

    /** CREATE MATERIALIZED VIEW: the view lives in its base table's keyspace (Cassandra checks it first). */
    public static void checkViewKeyspace(CreateView s, String currentKs) {
        String ks = s.view().keyspace() != null ? s.view().keyspace() : currentKs;
        if (ks == null) {
            throw new InvalidRequestException("No keyspace has been specified. USE a keyspace, or explicitly "
                    + "specify keyspace.tablename");
        }
        if (s.baseTable().keyspace() != null && !ks.equals(s.baseTable().keyspace())) {
            throw new InvalidRequestException("Cannot create a materialized view on a table in a different keyspace");
        }
    }

    private static InvalidRequestException unsupported(String what) {
        return new InvalidRequestException(what + " are not supported by Charybdis yet");
    }

    static String keyspaceOf(QualifiedName name, String current) {
        if (name.keyspace() != null) {
            return name.keyspace();
        }
        if (current == null) {
            throw new InvalidRequestException("No keyspace has been specified. USE a keyspace, or explicitly specify "
                    + "keyspace.tablename");
        }
        return current;
    }

    private static KeyspaceMetadata existingKeyspace(Schema schema, String ks) {
        KeyspaceMetadata k = schema.keyspace(ks);
        if (k == null) {
            throw new InvalidRequestException("Keyspace '" + ks + "' doesn't exist");
        }
        return k;
    }

    private static void checkNotSystem(String ks) {
        if (SchemaConstants.isSystemKeyspace(ks)) {
            throw new UnauthorizedException(ks + " keyspace is not user-modifiable.");
        }
    }

    /**
     * Whether a dropped column (of CQL type {@code previous}) may be added again as {@code type}, as Cassandra 5.0
     * decides it ({@code isSerializationCompatibleWith}): the new type reads the old values and serializes them
     * alike (a fixed-length type only as the same fixed length).
     */
    private static boolean reAddCompatible(DataType type, String previous, KeyspaceMetadata ks) {
        if (type.cqlName().equals(previous)) {
            return true;
        }
        DataType prev;
        try {
            prev = TypeResolver.parse(previous, ks);
        } catch (RuntimeException e) {
            return false; // (a type since dropped)
        }
        return valueCompatible(type, prev);
    }

    /**
     * Whether values of {@code prev} read as {@code now}, serialized alike (Cassandra's serialization
     * compatibility).
     */
    private static boolean valueCompatible(DataType now, DataType prev) {
        if (now.cqlName().equals(prev.cqlName())) {
            return true;
        }
        TypeKind n = Types.kind(now);
        TypeKind p = Types.kind(prev);
        if (n.isCollection() || p.isCollection() || n == TypeKind.TUPLE || p == TypeKind.TUPLE) {
            if (n == TypeKind.BLOB) {
                return prev.isFrozen() && p != TypeKind.BLOB;
            }
            if (n != p || now.isFrozen() != prev.isFrozen()) {
                return false;
            }
            return switch (n) {
                case LIST -> valueCompatible(Types.elementType(now), Types.elementType(prev));
                case SET -> comparisonCompatible(Types.elementType(now), Types.elementType(prev));
                case MAP -> comparisonCompatible(Types.keyType(now), Types.keyType(prev))
                        && valueCompatible(Types.valueType(now), Types.valueType(prev));
                default -> {
                    List<DataType> nf = Types.fieldTypes(now);
                    List<DataType> pf = Types.fieldTypes(prev);
                    if (nf.size() < pf.size()) {
                        yield false;
                    }
                    for (int i = 0; i < pf.size(); i++) {
                        if (!valueCompatible(nf.get(i), pf.get(i))) {
                            yield false;
                        }
                    }
                    yield true;
                }
            };
        }
        return switch (n) {
            case BLOB -> !FIXED_LENGTH.contains(p) && !Types.isMultiCell(prev);
            case TEXT -> p == TypeKind.ASCII;
            case BIGINT -> p == TypeKind.TIMESTAMP;
            case TIMESTAMP -> p == TypeKind.BIGINT;
            case UUID -> p == TypeKind.TIMEUUID;
            default -> false;
        };
    }

    /** Whether values of {@code prev} sort alike as {@code now} (set elements, map keys). */
    private static boolean comparisonCompatible(DataType now, DataType prev) {
        if (now.cqlName().equals(prev.cqlName())) {
            return true;
        }
        TypeKind n = Types.kind(now);
        TypeKind p = Types.kind(prev);
        return n == TypeKind.TEXT && p == TypeKind.ASCII
                || n == TypeKind.BLOB && (p == TypeKind.TEXT || p == TypeKind.ASCII);
    }

    /**
     * Whether a column added again as {@code type} reads the cells of its dropped namesake {@code prev} under the
     * same cell id: only a column of the same type (counters aside, whose shards merge by clock); another type gets
     * a fresh id, so none of the old cells show.
     */
    private static boolean reusesDroppedCells(DataType type, TableMetadata.DroppedColumn prev) {
        return prev.cellId() >= 0 && !Types.isCounter(type) && type.cqlName().equals(prev.type());
    }

    /** The types whose values all have one length (Cassandra's valueLengthIfFixed). */
    private static final Set<TypeKind> FIXED_LENGTH = java.util.EnumSet.of(TypeKind.INT, TypeKind.BIGINT,
            TypeKind.BOOLEAN, TypeKind.FLOAT, TypeKind.DOUBLE, TypeKind.UUID, TypeKind.TIMEUUID, TypeKind.TIMESTAMP,
            TypeKind.COUNTER);


    // ---- materialised views, functions and aggregates: none can exist ------------------------------------------
    //
    // Charybdis builds no materialised views and no user-defined functions (CREATE refuses them), so no view, UDF or
    // UDA ever exists. The statements that name one are still answered as Cassandra answers them, in its order of
    // checks: the same errors for input it rejects, "doesn't exist" (or nothing, with IF EXISTS) for the rest.

    /** Cassandra's check on DDL naming a function or a view: local and virtual system keyspaces are read-only. */
    private static void checkModifiable(String ks) {
        if (SchemaConstants.SYSTEM.equals(ks) || SchemaConstants.SYSTEM_SCHEMA.equals(ks)
                || SchemaConstants.SYSTEM_VIEWS.equals(ks) || SchemaConstants.SYSTEM_VIRTUAL_SCHEMA.equals(ks)) {
            throw new InvalidRequestException("System keyspace '" + ks + "' is not user-modifiable");
        }
    }

    /** ALTER and DROP MATERIALIZED VIEW: the view named cannot exist. */
    private static SchemaChange missingView(QualifiedName view, boolean ifExists, String currentKs) {
        String ks = keyspaceOf(view, currentKs);
        checkModifiable(ks);
        if (ifExists) {
            return null;
        }
        throw new InvalidRequestException("Materialized view '" + ks + "." + view.name() + "' doesn't exist");
    }

    /** DROP FUNCTION and DROP AGGREGATE ({@code what}: "Function" or "Aggregate"); argumentTypes null: none given. */
    private static SchemaChange dropFunction(Schema schema, String what, QualifiedName name, boolean ifExists,
            List<io.charybdis.node.cql.syntax.CqlTypeSyntax> argumentTypes, String currentKs) {
        if (argumentTypes != null) {
            argumentTypes.forEach(TypeResolver::checkFreezable);
        }
        String ks = keyspaceOf(name, currentKs);
        checkModifiable(ks);
        StringBuilder shown = new StringBuilder(ks).append('.').append(name.name());
        if (argumentTypes != null) {
            shown.append('(');
            for (int i = 0; i < argumentTypes.size(); i++) {
                shown.append(i == 0 ? "" : ", ").append(TypeResolver.asWritten(argumentTypes.get(i)));
            }
            shown.append(')');
        }
        KeyspaceMetadata keyspace = schema.keyspace(ks);
        if (keyspace != null && argumentTypes != null) {
            for (io.charybdis.node.cql.syntax.CqlTypeSyntax t : argumentTypes) {
                if (TypeResolver.frozenNotImplicitly(t)) {
                    String written = TypeResolver.asWritten(t);
                    throw new InvalidRequestException("Argument '" + written + "' cannot be frozen; remove frozen<> "
                            + "modifier from '" + written + "'");
                }
            }
            for (io.charybdis.node.cql.syntax.CqlTypeSyntax t : argumentTypes) {
                checkNoNestedCounter(TypeResolver.resolve(t, keyspace));
            }
        }
        if (ifExists) {
            return null;
        }
        throw new InvalidRequestException(what + " '" + shown + "' doesn't exist");
    }

    /**
     * CREATE AGGREGATE: its state function must be a user-defined function of the aggregate's keyspace, and none
     * exists, so after Cassandra's checks of the statement it always ends in "State function ... doesn't exist".
     * Its messages show user types in the aggregate's keyspace, as Cassandra's (which qualifies them first).
     */
    private static SchemaChange createAggregate(Schema schema, CreateAggregate s, String currentKs) {
        s.argumentTypes().forEach(TypeResolver::checkFreezable);
        TypeResolver.checkFreezable(s.stateType());
        String ks = keyspaceOf(s.aggregate(), currentKs);
        KeyspaceMetadata keyspace = schema.keyspace(ks);
        if (keyspace == null) {
            throw new ConfigurationException("Keyspace " + ks + " doesn't exist");
        }
        // Cassandra's permission check resolves the types first: the state type, then the arguments
        checkNoNestedCounter(TypeResolver.resolve(s.stateType(), keyspace));
        for (io.charybdis.node.cql.syntax.CqlTypeSyntax t : s.argumentTypes()) {
            checkNoNestedCounter(TypeResolver.resolve(t, keyspace));
        }
        checkModifiable(ks);
        if (s.ifNotExists() && s.orReplace()) {
            throw new InvalidRequestException("Cannot use both 'OR REPLACE' and 'IF NOT EXISTS' directives");
        }
        for (io.charybdis.node.cql.syntax.CqlTypeSyntax t : s.argumentTypes()) {
            if (TypeResolver.frozenNotImplicitly(t)) {
                String written = TypeResolver.asWritten(t, ks);
                throw new InvalidRequestException("Argument '" + written + "' cannot be frozen; remove frozen<> "
                        + "modifier from '" + written + "'");
            }
        }
        if (TypeResolver.frozenNotImplicitly(s.stateType())) {
            String written = TypeResolver.asWritten(s.stateType(), ks);
            throw new InvalidRequestException("State type '" + written + "' cannot be frozen; remove frozen<> "
                    + "modifier from '" + written + "'");
        }
        StringBuilder signature = new StringBuilder(TypeResolver.asWritten(s.stateType(), ks));
        for (io.charybdis.node.cql.syntax.CqlTypeSyntax t : s.argumentTypes()) {
            signature.append(", ").append(TypeResolver.asWritten(t, ks));
        }
        throw new InvalidRequestException("State function " + ks + "." + s.stateFunction() + "(" + signature
                + ") doesn't exist");
    }

    // ---- keyspaces -------------------------------------------------------------------------------------------

    private SchemaChange createKeyspace(Schema schema, CreateKeyspace s) {
        String name = s.keyspace();
        if (!SchemaConstants.isValidName(name)) {
            throw new InvalidRequestException(name.length() > 48
                    ? "Keyspace name must not be more than 48 characters long (got " + name.length()
                            + " characters for \"" + name + "\")"
                    : "Keyspace name must not be empty and must contain alphanumeric or underscore characters only "
                            + "(got \"" + name + "\")");
        }
        if (SchemaConstants.isSystemKeyspace(name)) {
            throw new InvalidRequestException("System keyspace '" + name + "' is not user-modifiable");
        }
        Map<String, String> replication = replication(name, s.properties(), null);
        boolean durable = durableWrites(s.properties(), true);
        if (schema.keyspace(name) != null) {
            if (s.ifNotExists()) {
                return null;
            }
            throw new AlreadyExistsException(name, "");
        }
        pending = schema.with(new KeyspaceMetadata(name, durable, replication, Map.of(), Map.of(), false));
        return SchemaChange.keyspace(SchemaChange.Change.CREATED, name);
    }

    private SchemaChange alterKeyspace(Schema schema, AlterKeyspace s) {
        KeyspaceMetadata ks = schema.keyspace(s.keyspace());
        if (ks == null || ks.virtual()) {
            // the replication of a stored system keyspace (system_auth, system_traces) is the user's to alter,
            // as in Cassandra
            checkNotSystem(s.keyspace());
        }
        if (ks == null) {
            if (s.ifExists()) {
                return null;
            }
            throw new InvalidRequestException("Keyspace '" + s.keyspace() + "' doesn't exist");
        }
        Map<String, String> replication = s.properties().has("replication")
                ? replication(ks.name(), s.properties(), ks.replication()) : ks.replication();
        pending = schema.with(ks.withParams(durableWrites(s.properties(), ks.durableWrites()), replication));
        return SchemaChange.keyspace(SchemaChange.Change.UPDATED, ks.name());
    }

    private SchemaChange dropKeyspace(Schema schema, DropKeyspace s) {
        checkNotSystem(s.keyspace());
        if (schema.keyspace(s.keyspace()) == null) {
            if (s.ifExists()) {
                return null;
            }
            throw new InvalidRequestException("Keyspace '" + s.keyspace() + "' doesn't exist");
        }
        pending = schema.without(s.keyspace());
        return SchemaChange.keyspace(SchemaChange.Change.DROPPED, s.keyspace());
    }

    private static boolean durableWrites(Properties props, boolean dflt) {
        for (Properties.Property p : props.entries()) {
            if (!p.name().equals("replication") && !p.name().equals("durable_writes")) {
                throw new io.charybdis.node.cql.exceptions.SyntaxException("Unknown property '" + p.name() + "'");
            }
        }
        String v = props.getString("durable_writes");
        if (v == null) {
            return dflt;
        }
        String b = v.toLowerCase(java.util.Locale.ROOT);
        if (b.equals("1") || b.equals("true") || b.equals("yes")) {
            return true;
        }
        if (b.equals("0") || b.equals("false") || b.equals("no")) {
            return false;
        }
        throw new io.charybdis.node.cql.exceptions.SyntaxException("Invalid boolean value " + v
                + " for 'durable_writes'. Positive values can be '1', 'true' or 'yes'. Negative values can be '0', "
                + "'false' or 'no'.");
    }

    /** Counters only stand alone: not inside collections or tuples (Cassandra's errors). */
    /** Whether a type is, or holds anywhere inside it, a duration. */
    private static boolean containsDuration(DataType t) {
        return switch (Types.kind(t)) {
            case DURATION -> true;
            case LIST, SET -> containsDuration(Types.elementType(t));
            case MAP -> containsDuration(Types.keyType(t)) || containsDuration(Types.valueType(t));
            case TUPLE, UDT -> Types.fieldTypes(t).stream().anyMatch(SchemaStatements::containsDuration);
            default -> false;
        };
    }

    private static void checkNoNestedCounter(DataType t) {
        // durations have no order: Cassandra refuses them as set elements and map keys
        if (Types.kind(t) == TypeKind.SET && Types.kind(Types.elementType(t)) == TypeKind.DURATION) {
            throw new InvalidRequestException("Durations are not allowed inside sets: " + t.cqlName());
        }
        if (Types.kind(t) == TypeKind.MAP && Types.kind(Types.keyType(t)) == TypeKind.DURATION) {
            throw new InvalidRequestException("Durations are not allowed as map keys: " + t.cqlName());
        }
        switch (Types.kind(t)) {
            case LIST, SET, MAP -> {
                List<DataType> inner = Types.kind(t) == TypeKind.MAP
                        ? List.of(Types.keyType(t), Types.valueType(t)) : List.of(Types.elementType(t));
                for (DataType i : inner) {
                    if (Types.isCounter(i)) {
                        throw new InvalidRequestException("Counters are not allowed inside collections: "
                                + t.cqlName());
                    }
                    checkNoNestedCounter(i);
                }
            }
            case TUPLE -> {
                for (DataType i : Types.fieldTypes(t)) {
                    if (Types.isCounter(i)) {
                        throw new InvalidRequestException("Counters are not allowed inside tuples");
                    }
                    checkNoNestedCounter(i);
                }
            }
            default -> {
            }
        }
    }

    /** drop_compact_storage_enabled: whether ALTER TABLE ... DROP COMPACT STORAGE is allowed (Cassandra: false). */
    private volatile boolean dropCompactStorageEnabled;

    public void setDropCompactStorageEnabled(boolean enabled) {
        this.dropCompactStorageEnabled = enabled;
    }

    /** The data centres of the cluster's members (a single node: its own). */
    private java.util.function.Supplier<java.util.Set<String>> dataCenters = () -> java.util.Set.of("datacenter1");

    /** Where the data centres NetworkTopologyStrategy may name come from (the cluster metadata's members). */
    public void setDataCenters(java.util.function.Supplier<java.util.Set<String>> dataCenters) {
        this.dataCenters = dataCenters;
    }

    Map<String, String> replication(String keyspace, Properties props, Map<String, String> previous) {
        return replication(keyspace, props, previous, dataCenters.get());
    }

    static Map<String, String> replication(String keyspace, Properties props, Map<String, String> previous,
                                           java.util.Set<String> dataCenters) {
        Map<String, String> given = props.getMap("replication");
        if (given == null) {
            if (props.has("replication")) {
                throw new io.charybdis.node.cql.exceptions.SyntaxException(
                        "Invalid value for property 'replication'. It should be a map.");
            }
            throw new InvalidRequestException("Missing mandatory option 'replication'");
        }
        String cls = given.get("class");
        if (cls == null) {
            if (previous == null) {
                throw new ConfigurationException("Missing replication strategy class");
            }
            cls = previous.get("class");
        }
        String full = cls.contains(".") ? cls : LOCATOR + cls;
        Map<String, String> out = new TreeMap<>();
        out.put("class", full);
        switch (full.substring(full.lastIndexOf('.') + 1)) {
            case "SimpleStrategy" -> {
                String rf = given.get("replication_factor");
                if (rf == null) {
                    rf = "1"; // Cassandra 5.0's default_keyspace_rf
                    given = new TreeMap<>(given);
                    given.put("replication_factor", rf);
                }
                checkRf(rf);
                for (String k : given.keySet()) {
                    if (!k.equals("class") && !k.equals("replication_factor")) {
                        throw new ConfigurationException("Unrecognized strategy option {" + k
                                + "} passed to SimpleStrategy for keyspace " + keyspace);
                    }
                }
                out.put("replication_factor", rf);
            }
            case "NetworkTopologyStrategy" -> {
                for (Map.Entry<String, String> e : given.entrySet()) {
                    if (e.getKey().equals("class")) {
                        continue;
                    }
                    checkRf(e.getValue());
                    if (!e.getKey().equals("replication_factor") && !dataCenters.contains(e.getKey())) {
                        throw new ConfigurationException("Unrecognized strategy option {" + e.getKey() + "} passed to "
                                + "NetworkTopologyStrategy for keyspace " + keyspace);
                    }
                    if (e.getKey().equals("replication_factor")) {
                        for (String dc : dataCenters) { // every data centre that does not name its own
                            if (!given.containsKey(dc)) {
                                out.put(dc, e.getValue());
                            }
                        }
                    } else {
                        out.put(e.getKey(), e.getValue());
                    }
                }
            }
            case "LocalStrategy", "EverywhereStrategy" -> throw new ConfigurationException(
                    "Unable to use given strategy class: " + full + " is reserved for internal use.");
            default -> throw new ConfigurationException("Unable to find replication strategy class '" + full + "'");
        }
        return out;
    }

    private static void checkRf(String rf) {
        String v = rf.contains("/") ? rf.substring(0, rf.indexOf('/')) : rf;
        try {
            if (Integer.parseInt(v) < 0) {
                throw new ConfigurationException("Replication factor must be non-negative, found " + rf);
            }
        } catch (NumberFormatException e) {
            throw new ConfigurationException("For input string: \"" + v + "\"");
        }
    }

    // ---- tables ------------------------------------------------------------------------------------------------

    /**
     * {@code WITH COMPACT STORAGE}: the definitions Cassandra 5.0 refuses get its errors; the others become "static"
     * (no clustering) or "dense" compact tables (see {@link CompactStorage}).
     */
    private static CompactStorage checkCompactStorage(List<ColumnMetadata> columns, List<String> clustering) {
        List<String> regular = new ArrayList<>();
        for (ColumnMetadata c : columns) {
            if (c.isStatic()) {
                throw new InvalidRequestException("Static columns are not supported in COMPACT STORAGE tables");
            }
            if (c.kind() == ColumnMetadata.Kind.REGULAR) {
                if (c.isMultiCell()) {
                    throw new InvalidRequestException("Non-frozen collections and UDTs are not supported with COMPACT "
                            + "STORAGE");
                }
                regular.add(c.name());
            }
        }
        if (clustering.isEmpty() && regular.isEmpty()) {
            throw new InvalidRequestException("No definition found that is not part of the PRIMARY KEY");
        }
        if (!clustering.isEmpty() && regular.size() > 1) {
            throw new InvalidRequestException("COMPACT STORAGE with composite PRIMARY KEY allows no more than one column "
                    + "not part of the PRIMARY KEY (got: " + String.join(", ", regular) + ")");
        }
        return clustering.isEmpty() ? CompactStorage.STATIC : CompactStorage.DENSE;
    }

    private SchemaChange createTable(Schema schema, CreateTable s, String currentKs) {
        String ksName = keyspaceOf(s.table(), currentKs);
        checkNotSystem(ksName);
        KeyspaceMetadata ks = existingKeyspace(schema, ksName);
        String name = s.table().name();
        // as Cassandra 5.0: table names up to 222 characters (a table's directory is <name>-<32 hex digits>)
        if (name.length() > SchemaConstants.TABLE_NAME_LENGTH) {
            throw new ConfigurationException(ksName + "." + name + ": Table name must not be more than "
                    + SchemaConstants.TABLE_NAME_LENGTH + " characters long (got " + name.length()
                    + " characters for \"" + name + "\")");
        }
        if (name.isEmpty() || !name.matches("\\w+")) {
            throw new ConfigurationException(ksName + "." + name + ": Table name must not be empty or not contain "
                    + "non-alphanumeric-underscore characters (got \"" + name + "\")");
        }
        if (ks.table(name) != null) {
            if (s.ifNotExists()) {
                return null;
            }
            throw new AlreadyExistsException(ksName, name);
        }
        if (s.primaryKey() == null) {
            throw new InvalidRequestException("No PRIMARY KEY specifed for table '" + name + "' (exactly one required)");
        }
        Map<String, SchemaStatement.ColumnDefinition> defs = new LinkedHashMap<>();
        for (SchemaStatement.ColumnDefinition d : s.columns()) {
            if (d.mask() != null) {
                throw maskingDisabled();
            }
            if (defs.put(d.name(), d) != null) {
                throw new InvalidRequestException("Duplicate column '" + d.name() + "' declaration for table '"
                        + name + "'");
            }
        }
        Map<String, Boolean> order = new LinkedHashMap<>();
        for (SchemaStatement.ClusteringOrder o : s.clusteringOrder()) {
            if (order.put(o.column(), o.descending()) != null) {
                throw new InvalidRequestException("Duplicate column '" + o.column() + "' in CLUSTERING ORDER BY clause "
                        + "for table '" + name + "'");
            }
        }
        List<ColumnMetadata> columns = new ArrayList<>();
        Set<String> keyColumns = new HashSet<>();
        int pos = 0;
        for (String pk : s.primaryKey().partitionKey()) {
            SchemaStatement.ColumnDefinition d = keyDefinition(defs, pk, keyColumns, name);
            DataType t = keyType(d, ks);
            columns.add(new ColumnMetadata(pk, t, ColumnMetadata.Kind.PARTITION_KEY, pos++, false, -1));
        }
        pos = 0;
        for (String ck : s.primaryKey().clustering()) {
            SchemaStatement.ColumnDefinition d = keyDefinition(defs, ck, keyColumns, name);
            DataType t = keyType(d, ks);
            columns.add(new ColumnMetadata(ck, t, ColumnMetadata.Kind.CLUSTERING, pos, Boolean.TRUE.equals(order.get(ck)),
                    -1));
            pos++;
        }
        List<String> clusteringNames = s.primaryKey().clustering();
        List<String> orderNames = new ArrayList<>(order.keySet());
        if (!orderNames.isEmpty()) {
            for (String o : orderNames) {
                if (!clusteringNames.contains(o)) {
                    throw new InvalidRequestException("Only clustering key columns can be defined in CLUSTERING ORDER "
                            + "directive: [" + o + "] are not clustering columns");
                }
            }
            for (int i = 0; i < orderNames.size(); i++) {
                String expected = clusteringNames.get(i);
                if (!orderNames.get(i).equals(expected)) {
                    throw new InvalidRequestException(order.containsKey(expected)
                            ? "The order of columns in the CLUSTERING ORDER directive must match that of the clustering "
                                    + "columns (" + expected + " must appear before " + orderNames.get(i) + ")"
                            : "Missing CLUSTERING ORDER for column " + expected);
                }
            }
        }
        int cellId = 0;
        boolean hasCounter = false;
        boolean hasNonCounter = false;
        for (SchemaStatement.ColumnDefinition d : defs.values()) {
            if (keyColumns.contains(d.name())) {
                if (d.isStatic()) {
                    throw new InvalidRequestException("Static column '" + d.name() + "' cannot be part of the PRIMARY KEY");
                }
                continue;
            }
            DataType t = TypeResolver.resolve(d.type(), ks);
            checkNoNestedCounter(t);
            checkNonFrozenUdt(t);
            if (d.isStatic() && clusteringNames.isEmpty()) {
                throw new InvalidRequestException("Static columns are only useful (and thus allowed) if the table has "
                        + "at least one clustering column");
            }
            if (Types.isCounter(t)) {
                hasCounter = true;
            } else {
                hasNonCounter = true;
            }
            columns.add(new ColumnMetadata(d.name(), t, d.isStatic() ? ColumnMetadata.Kind.STATIC
                    : ColumnMetadata.Kind.REGULAR, -1, false, cellId++));
        }
        if (hasCounter && hasNonCounter) {
            throw new InvalidRequestException("Cannot mix counter and non counter columns in the same table");
        }
        CompactStorage compact = s.compactStorage() ? checkCompactStorage(columns, clusteringNames)
                : CompactStorage.NONE;
        TableParams params = TableOptions.apply(TableParams.defaults(), s.properties());
        if (hasCounter && params.defaultTimeToLive() > 0) {
            throw new InvalidRequestException("Cannot set default_time_to_live on a table with counters");
        }
        TableMetadata table = new TableMetadata(ksName, name, UUID.randomUUID(), columns, params, cellId, Map.of(),
                Map.of(), false, compact);
        pending = schema.with(ks.withTable(table));
        return SchemaChange.table(SchemaChange.Change.CREATED, ksName, name);
    }

    /** Cassandra's refusal of a column mask while dynamic data masking is disabled (its default). */
    private static InvalidRequestException maskingDisabled() {
        return new InvalidRequestException("Cannot mask columns because dynamic data masking is not enabled. You can "
                + "enable it with the dynamic_data_masking_enabled property on cassandra.yaml");
    }

    private static SchemaStatement.ColumnDefinition keyDefinition(Map<String, SchemaStatement.ColumnDefinition> defs,
                                                                  String name, Set<String> keyColumns, String table) {
        SchemaStatement.ColumnDefinition d = defs.get(name);
        if (d == null) {
            throw new InvalidRequestException("Unknown column '" + name + "' referenced in PRIMARY KEY for table '"
                    + table + "'");
        }
        if (!keyColumns.add(name)) {
            throw new InvalidRequestException("Duplicate column '" + name + "' in PRIMARY KEY clause for table '"
                    + table + "'");
        }
        return d;
    }

    /** A column of a non-frozen user type whose fields hold non-frozen collections: Cassandra refuses it. */
    private static void checkNonFrozenUdt(DataType t) {
        if (Types.kind(t) == TypeKind.UDT && t.isMultiCell()
                && Types.fieldTypes(t).stream().anyMatch(DataType::isMultiCell)) {
            throw new InvalidRequestException("Non-frozen UDTs with nested non-frozen collections are not supported");
        }
    }

    private static DataType keyType(SchemaStatement.ColumnDefinition d, KeyspaceMetadata ks) {
        DataType t = TypeResolver.resolve(d.type(), ks);
        if (t.isMultiCell()) {
            throw new InvalidRequestException(Types.kind(t) == TypeKind.UDT
                    ? "Invalid non-frozen user-defined type \"" + ks.name() + "." + t.cqlName()
                            + "\" for PRIMARY KEY column '" + d.name() + "'"
                    : "Invalid non-frozen collection type " + t.cqlName() + " for PRIMARY KEY column '" + d.name()
                            + "'");
        }
        if (Types.isCounter(t)) {
            throw new InvalidRequestException("counter type is not supported for PRIMARY KEY column '" + d.name() + "'");
        }
        if (containsDuration(t)) {
            throw new InvalidRequestException("duration type is not supported for PRIMARY KEY column '" + d.name()
                    + "'");
        }
        return t;
    }

    private TableMetadata existingTable(Schema schema, QualifiedName qn, String currentKs) {
        String ksName = keyspaceOf(qn, currentKs);
        KeyspaceMetadata ks = existingKeyspace(schema, ksName);
        TableMetadata t = ks.table(qn.name());
        if (t == null) {
            throw new InvalidRequestException("Table '" + ksName + "." + qn.name() + "' doesn't exist");
        }
        return t;
    }

    private SchemaChange alterTable(Schema schema, AlterTable s, String currentKs) {
        String ksName = keyspaceOf(s.table(), currentKs);
        checkNotSystem(ksName);
        KeyspaceMetadata ks = existingKeyspace(schema, ksName);
        TableMetadata t = ks.table(s.table().name());
        if (t == null) {
            if (s.ifExists()) {
                return null;
            }
            throw new InvalidRequestException("Table '" + ksName + "." + s.table().name() + "' doesn't exist");
        }
        List<ColumnMetadata> columns = new ArrayList<>(t.allColumns());
        TableParams params = t.params();
        int nextCell = t.nextCellId();
        Map<String, TableMetadata.DroppedColumn> dropped = new LinkedHashMap<>(t.droppedColumns());
        switch (s.action()) {
            case AddColumns add -> {
                if (t.isCompactStorage()) {
                    throw new InvalidRequestException("Cannot add new column to a COMPACT STORAGE table");
                }
                boolean changed = false;
                Set<String> adding = new HashSet<>();
                for (SchemaStatement.ColumnDefinition d : add.columns()) {
                    if (d.mask() != null) {
                        throw maskingDisabled();
                    }
                    if (t.column(d.name()) != null || !adding.add(d.name())) {
                        if (add.ifNotExists()) {
                            continue;
                        }
                        throw new InvalidRequestException("Column with name '" + d.name() + "' already exists");
                    }
                    DataType type = TypeResolver.resolve(d.type(), ks);
                    checkNoNestedCounter(type);
                    checkNonFrozenUdt(type);
                    if (d.isStatic() && t.clustering().isEmpty()) {
                        throw new InvalidRequestException("Static columns are only useful (and thus allowed) if the "
                                + "table has at least one clustering column");
                    }
                    if (Types.isCounter(type) != t.isCounterTable() && !t.regularAndStatic().isEmpty()) {
                        throw new ConfigurationException(t.keyspace() + "." + t.name() + ": " + (t.isCounterTable()
                                ? "Cannot have a non counter column (\"" + d.name() + "\") in a counter table"
                                : "Cannot have a counter column (\"" + d.name() + "\") in a non counter table"));
                    }
                    TableMetadata.DroppedColumn prev = dropped.get(d.name());
                    if (prev != null && !reAddCompatible(type, prev.type(), ks)) {
                        throw new InvalidRequestException("Cannot re-add previously dropped column '" + d.name()
                                + "' of type " + type.cqlName() + ", incompatible with previous type " + prev.type());
                    }
                    if (prev != null && prev.kind().equalsIgnoreCase("static") != d.isStatic()) {
                        throw new InvalidRequestException("Cannot re-add previously dropped column '" + d.name()
                                + "' of kind " + (d.isStatic() ? "STATIC" : "REGULAR") + ", incompatible with previous "
                                + "kind " + prev.kind().toUpperCase(java.util.Locale.ROOT));
                    }
                    // a column added again takes its old cells back (Cassandra knows columns by name): those
                    // written after the drop are its own, the older ones stay dropped (TableMetadata.droppedTimeOf)
                    int cellId = prev != null && reusesDroppedCells(type, prev) ? prev.cellId() : nextCell++;
                    columns.add(new ColumnMetadata(d.name(), type, d.isStatic() ? ColumnMetadata.Kind.STATIC
                            : ColumnMetadata.Kind.REGULAR, -1, false, cellId));
                    changed = true;
                }
                if (!changed) {
                    return null;
                }
            }
            case DropColumns drop -> {
                boolean changed = false;
                for (String c : drop.columns()) {
                    ColumnMetadata col = t.column(c);
                    if (col == null) {
                        if (drop.ifExists()) {
                            continue;
                        }
                        throw new InvalidRequestException("Column " + c + " was not found in table '" + ksName + "."
                                + t.name() + "'");
                    }
                    if (col.isPrimaryKey()) {
                        throw new InvalidRequestException("Cannot drop PRIMARY KEY column " + c);
                    }
                    if (t.compactStorage() == CompactStorage.DENSE) {
                        // Cassandra 5.0.6 fails here with a Server_error (IndexOutOfBoundsException)
                        throw new InvalidRequestException("Cannot drop the compact value column " + c
                                + " of a COMPACT STORAGE table");
                    }
                    for (IndexMetadata i : t.indexes().values()) {
                        if (i.targetColumn().equals(c)) {
                            throw new InvalidRequestException("Cannot drop column " + c + " because it has dependent "
                                    + "secondary indexes (" + i.name() + ")");
                        }
                    }
                    columns.remove(col);
                    long time = drop.timestamp() != null ? drop.timestamp() : System.currentTimeMillis() * 1000;
                    dropped.put(c, new TableMetadata.DroppedColumn(c, col.type().cqlName(), col.kind().schemaName(),
                            time, col.cellId()));
                    changed = true;
                }
                if (!changed) {
                    return null;
                }
            }
            case RenameColumns rename -> {
                for (SchemaStatement.Rename r : rename.renames()) {
                    ColumnMetadata col = null;
                    for (ColumnMetadata c : columns) {
                        if (c.name().equals(r.from())) {
                            col = c;
                        }
                    }
                    if (col == null) {
                        // as Cassandra: IF EXISTS is about the table; an unknown column is an error all the same
                        throw new InvalidRequestException("Undefined column name " + r.from() + " in table " + t);
                    }
                    if (!col.isPrimaryKey()) {
                        throw new InvalidRequestException("Cannot rename non PRIMARY KEY column " + r.from());
                    }
                    for (ColumnMetadata c : columns) {
                        if (c.name().equals(r.to())) {
                            throw new InvalidRequestException("Cannot rename column " + r.from() + " to " + r.to()
                                    + " in table '" + ksName + "." + t.name() + "'; another column with that name "
                                    + "already exists");
                        }
                    }
                    columns.set(columns.indexOf(col), col.withName(r.to()));
                }
            }
            case AlterTableOptions opts -> {
                params = TableOptions.apply(params, opts.properties());
                if (t.isCounterTable() && params.defaultTimeToLive() > 0) {
                    throw new InvalidRequestException("Cannot set default_time_to_live on a table with counters");
                }
            }
            case AlterColumnType act -> throw new InvalidRequestException("Altering column types is no longer "
                    + "supported");
            case AlterColumnMask m -> {
                // dynamic_data_masking_enabled is false, as in Cassandra's default cassandra.yaml: a mask cannot be
                // set, and dropping one (there is none) changes nothing
                if (m.mask() != null) {
                    throw maskingDisabled();
                }
                return null;
            }
            case DropCompactStorage d -> {
                return dropCompactStorage(schema, ks, t);
            }
        }
        TableMetadata after = t.with(columns, params, nextCell, dropped, t.indexes());
        pending = schema.with(ks.withTable(after));
        return SchemaChange.table(SchemaChange.Change.UPDATED, ksName, t.name());
    }

    /**
     * {@code ALTER TABLE ... DROP COMPACT STORAGE}, refused unless {@code drop_compact_storage_enabled} is true (as in
     * Cassandra, whose default it is). The table then becomes the CQL table its compact layout already was: flags
     * {@code compound} (and {@code counter}), its columns unchanged; rows written before keep their data and, having no
     * row marker, live while one of their cells does, as in Cassandra.
     *
     * <p>Only dense tables with a declared value column are built: a static compact table (whose declared columns
     * become static and whose hidden {@code column1}/{@code value} become real columns) and a dense table without a
     * value (whose hidden {@code value} of type {@code empty} becomes a real column) are refused naming the shape.
     */
    private SchemaChange dropCompactStorage(Schema schema, KeyspaceMetadata ks, TableMetadata t) {
        if (!dropCompactStorageEnabled) {
            throw new InvalidRequestException("DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.");
        }
        if (!t.isCompactStorage()) {
            throw new InvalidRequestException("Cannot DROP COMPACT STORAGE on table without COMPACT STORAGE");
        }
        if (t.compactStorage() == CompactStorage.STATIC) {
            throw unsupported("DROP COMPACT STORAGE statements on static COMPACT STORAGE tables (no clustering column)");
        }
        if (t.regularAndStatic().isEmpty()) {
            throw unsupported("DROP COMPACT STORAGE statements on COMPACT STORAGE tables without a value column");
        }
        pending = schema.with(ks.withTable(t.withCompactStorage(CompactStorage.NONE)));
        return SchemaChange.table(SchemaChange.Change.UPDATED, ks.name(), t.name());
    }

    private SchemaChange dropTable(Schema schema, DropTable s, String currentKs) {
        String ksName = keyspaceOf(s.table(), currentKs);
        checkNotSystem(ksName);
        KeyspaceMetadata ks = schema.keyspace(ksName);
        if (ks == null || ks.table(s.table().name()) == null) {
            if (s.ifExists()) {
                return null;
            }
            throw new InvalidRequestException("Table '" + ksName + "." + s.table().name() + "' doesn't exist");
        }
        pending = schema.with(ks.withoutTable(s.table().name()));
        return SchemaChange.table(SchemaChange.Change.DROPPED, ksName, s.table().name());
    }

    // ---- types ------------------------------------------------------------------------------------------------

    private SchemaChange createType(Schema schema, CreateType s, String currentKs) {
        String ksName = keyspaceOf(s.type(), currentKs);
        checkNotSystem(ksName);
        KeyspaceMetadata ks = existingKeyspace(schema, ksName);
        String name = s.type().name();
        if (ks.types().containsKey(name)) {
            if (s.ifNotExists()) {
                return null;
            }
            throw new InvalidRequestException("A user type with name '" + name + "' already exists");
        }
        if (io.charybdis.protocol.types.NativeType.fromCqlName(name) != null) {
            throw new InvalidRequestException("Type name " + name + " is reserved");
        }
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (SchemaStatement.FunctionArgument f : s.fields()) {
            if (names.contains(f.name())) {
                throw new InvalidRequestException("Duplicate field name '" + f.name() + "' in type '" + name + "'");
            }
            if (f.type() instanceof io.charybdis.node.cql.syntax.CqlTypeSyntax.UserType) {
                // checked on the type as written, before the type is looked up
                throw new InvalidRequestException("A user type cannot contain non-frozen UDTs");
            }
            DataType t = TypeResolver.resolve(f.type(), ks);
            if (Types.isCounter(t)) {
                throw new InvalidRequestException("A user type cannot contain counters");
            }
            if (t.isMultiCell() && Types.kind(t) == TypeKind.UDT) {
                throw new InvalidRequestException("A user type cannot contain non-frozen UDTs");
            }
            names.add(f.name());
            types.add(t);
        }
        pending = schema.with(ks.withType(new UserType(ksName, name, names, types, false)));
        return SchemaChange.type(SchemaChange.Change.CREATED, ksName, name);
    }

    private SchemaChange alterType(Schema schema, AlterType s, String currentKs) {
        String ksName = keyspaceOf(s.type(), currentKs);
        checkNotSystem(ksName);
        KeyspaceMetadata ks = existingKeyspace(schema, ksName);
        UserType t = ks.types().get(s.type().name());
        if (t == null) {
            if (s.ifExists()) {
                return null;
            }
            throw new InvalidRequestException("Type " + ksName + "." + s.type().name() + " doesn't exist");
        }
        List<String> names = new ArrayList<>(t.fieldNames());
        List<DataType> types = new ArrayList<>(t.fieldTypes());
        switch (s.action()) {
            case AddField add -> {
                if (names.contains(add.field())) {
                    if (add.ifNotExists()) {
                        return null;
                    }
                    throw new InvalidRequestException("Cannot add field " + add.field() + " to type " + ksName + "."
                            + t.cqlName() + ": a field with name " + add.field() + " already exists");
                }
                DataType fieldType = TypeResolver.resolve(add.type(), ks);
                if (usesType(fieldType, ksName, t.name())) {
                    throw new InvalidRequestException("Cannot add new field " + add.field() + " of type "
                            + qualifiedCql(fieldType) + " to user type " + ksName + "." + t.cqlName() + " as it would "
                            + "create a circular reference");
                }
                names.add(add.field());
                types.add(fieldType);
            }
            case RenameFields rename -> {
                for (SchemaStatement.Rename r : rename.renames()) {
                    int i = names.indexOf(r.from());
                    if (i < 0) {
                        if (rename.ifExists()) {
                            continue;
                        }
                        throw new InvalidRequestException("Unkown field " + r.from() + " in user type " + ksName + "."
                                + s.type().name());
                    }
                    names.set(i, r.to());
                }
            }
            case AlterFieldType a -> throw new InvalidRequestException("Altering field types is no longer supported");
        }
        UserType updated = new UserType(ksName, t.name(), names, types, false);
        KeyspaceMetadata newKs = ks.withType(updated);
        // Types using the type (at any depth) see the new fields too
        for (UserType other : ks.types().values()) {
            if (!other.name().equals(updated.name())) {
                DataType nt = replaceUdt(other, updated);
                if (nt != other) {
                    newKs = newKs.withType((UserType) nt);
                }
            }
        }
        // Tables using the type see the new fields: re-resolve their column types.
        for (TableMetadata table : ks.tables().values()) {
            List<ColumnMetadata> cols = new ArrayList<>();
            boolean uses = false;
            for (ColumnMetadata c : table.allColumns()) {
                DataType nt = replaceUdt(c.type(), updated);
                uses |= nt != c.type();
                cols.add(nt == c.type() ? c : new ColumnMetadata(c.name(), nt, c.kind(), c.position(), c.reversed(),
                        c.cellId()));
            }
            if (uses) {
                newKs = newKs.withTable(table.with(cols, table.params(), table.nextCellId(), table.droppedColumns(),
                        table.indexes()));
            }
        }
        pending = schema.with(newKs);
        return SchemaChange.type(SchemaChange.Change.UPDATED, ksName, t.name());
    }

    /** A type as Cassandra's messages show it: user types named with their keyspace, unquoted. */
    private static String qualifiedCql(DataType type) {
        String inner;
        if (Types.kind(type) == TypeKind.TUPLE) {
            // (a tuple is shown without frozen<>)
            StringBuilder sb = new StringBuilder("tuple<");
            List<DataType> fields = Types.fieldTypes(type);
            for (int i = 0; i < fields.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(qualifiedCql(fields.get(i)));
            }
            return sb.append('>').toString();
        }
        if (type instanceof UserType u) {
            inner = u.keyspace() + "." + u.name();
        } else {
            inner = switch (Types.kind(type)) {
                case LIST -> "list<" + qualifiedCql(Types.elementType(type)) + ">";
                case SET -> "set<" + qualifiedCql(Types.elementType(type)) + ">";
                case MAP -> "map<" + qualifiedCql(Types.keyType(type)) + ", " + qualifiedCql(Types.valueType(type))
                        + ">";
                default -> null;
            };
            if (inner == null) {
                return type.cqlName();
            }
        }
        return type.isFrozen() ? "frozen<" + inner + ">" : inner;
    }

    /** {@code type} with every use of the user type {@code updated}, at any depth, replaced by its new definition. */
    private static DataType replaceUdt(DataType type, UserType updated) {
        if (type instanceof UserType u) {
            if (u.name().equals(updated.name()) && u.keyspace().equals(updated.keyspace())) {
                return new UserType(u.keyspace(), u.name(), updated.fieldNames(), updated.fieldTypes(), u.frozen());
            }
            List<DataType> fields = new ArrayList<>();
            boolean changed = false;
            for (DataType f : u.fieldTypes()) {
                DataType nf = replaceUdt(f, updated);
                changed |= nf != f;
                fields.add(nf);
            }
            return changed ? new UserType(u.keyspace(), u.name(), u.fieldNames(), fields, u.frozen()) : type;
        }
        return switch (Types.kind(type)) {
            case LIST, SET -> {
                DataType e = replaceUdt(Types.elementType(type), updated);
                yield e == Types.elementType(type) ? type : Types.kind(type) == TypeKind.LIST
                        ? Types.listOf(e, type.isFrozen()) : Types.setOf(e, type.isFrozen());
            }
            case MAP -> {
                DataType k = replaceUdt(Types.keyType(type), updated);
                DataType v = replaceUdt(Types.valueType(type), updated);
                yield k == Types.keyType(type) && v == Types.valueType(type) ? type
                        : Types.mapOf(k, v, type.isFrozen());
            }
            case TUPLE -> {
                List<DataType> comps = new ArrayList<>();
                boolean changed = false;
                for (DataType c : Types.fieldTypes(type)) {
                    DataType nc = replaceUdt(c, updated);
                    changed |= nc != c;
                    comps.add(nc);
                }
                yield changed ? new io.charybdis.protocol.types.TupleType(comps) : type;
            }
            default -> type;
        };
    }

    private SchemaChange dropType(Schema schema, DropType s, String currentKs) {
        String ksName = keyspaceOf(s.type(), currentKs);
        checkNotSystem(ksName);
        KeyspaceMetadata ks = schema.keyspace(ksName);
        if (ks == null || !ks.types().containsKey(s.type().name())) {
            if (s.ifExists()) {
                return null;
            }
            throw new InvalidRequestException("Type '" + ksName + "." + s.type().name() + "' doesn't exist");
        }
        String name = s.type().name();
        List<String> usingTypes = new ArrayList<>();
        for (UserType other : ks.types().values()) {
            for (DataType f : other.fieldTypes()) {
                if (usesType(f, ksName, name)) {
                    usingTypes.add(other.name());
                    break;
                }
            }
        }
        if (!usingTypes.isEmpty()) {
            throw new InvalidRequestException("Cannot drop user type '" + ksName + "." + name
                    + "' as it is still used by user types " + String.join(", ", usingTypes.stream().sorted()
                    .toList()));
        }
        List<String> usingTables = new ArrayList<>();
        for (TableMetadata t : ks.tables().values()) {
            for (ColumnMetadata c : t.allColumns()) {
                if (usesType(c.type(), ksName, name)) {
                    usingTables.add(t.name());
                    break;
                }
            }
        }
        if (!usingTables.isEmpty()) {
            throw new InvalidRequestException("Cannot drop user type '" + ksName + "." + name
                    + "' as it is still used by tables " + String.join(", ", usingTables));
        }
        pending = schema.with(ks.withoutType(name));
        return SchemaChange.type(SchemaChange.Change.DROPPED, ksName, name);
    }

    private static boolean usesType(DataType t, String ks, String name) {
        if (t instanceof UserType u) {
            if (u.keyspace().equals(ks) && u.name().equals(name)) {
                return true;
            }
            for (DataType f : u.fieldTypes()) {
                if (usesType(f, ks, name)) {
                    return true;
                }
            }
            return false;
        }
        return switch (Types.kind(t)) {
            case LIST, SET, VECTOR -> usesType(Types.elementType(t), ks, name);
            case MAP -> usesType(Types.keyType(t), ks, name) || usesType(Types.valueType(t), ks, name);
            case TUPLE -> Types.fieldTypes(t).stream().anyMatch(f -> usesType(f, ks, name));
            default -> false;
        };
    }

    // ---- indexes ----------------------------------------------------------------------------------------------

    /** The longest file name the file systems we run on accept (ext4, xfs). */
    private static final int MAX_FILE_NAME = 255;

    private static boolean indexNameTaken(KeyspaceMetadata ks, String name) {
        for (TableMetadata other : ks.tables().values()) {
            if (other.indexes().containsKey(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * CREATE INDEX, checked in Cassandra's order: the index name already taken, the table (counter tables), the
     * kind of index, the targets (each column: durations, compact tables, the only partition key column, the
     * frozen/full/keys/entries rules, non-frozen UDTs), then an index equal to an existing one in all but name.
     */
    private SchemaChange createIndex(Schema schema, CreateIndex s, String currentKs) {
        // the index attributes first, as Cassandra: USING a class other than the native one makes it CUSTOM
        boolean legacy = s.usingClass() != null && !s.custom()
                && (s.usingClass().equalsIgnoreCase("legacy_local_table"));
        boolean custom = s.custom() || (s.usingClass() != null && !legacy);
        for (Properties.Property p : s.properties().entries()) {
            if (!p.name().equals("options")) {
                throw new io.charybdis.node.cql.exceptions.SyntaxException("Unknown property '" + p.name() + "'");
            }
        }
        Map<String, String> options = s.properties().getMap("options");
        if (options == null) {
            options = Map.of();
        }
        if (!custom && !options.isEmpty()) {
            throw new InvalidRequestException("Cannot specify options for a non-CUSTOM index");
        }
        for (String reserved : List.of("class_name", "target")) {
            if (options.containsKey(reserved)) {
                throw new InvalidRequestException("Cannot specify " + reserved + " as a CUSTOM option");
            }
        }
        // CUSTOM without USING: Cassandra takes its default index class, the native one, which is no custom class
        String className = !custom ? null : s.usingClass() != null ? s.usingClass() : "legacy_local_table";
        if (SASI_CLASS.equals(className)) {
            throw unsupported("SASI indexes");
        }
        KeyspaceMetadata ks = existingKeyspace(schema, keyspaceOf(s.table(), currentKs));
        TableMetadata t = ks.table(s.table().name());
        if (t == null) {
            throw new InvalidRequestException("Table '" + s.table().name() + "' doesn't exist");
        }
        checkNotSystem(t.keyspace());
        if (s.name() != null && indexNameTaken(ks, s.name())) {
            if (s.ifNotExists()) {
                return null;
            }
            throw new InvalidRequestException("Index '" + s.name() + "' already exists");
        }
        if (t.isCounterTable()) {
            throw new InvalidRequestException("Secondary indexes on counter tables aren't supported");
        }
        List<ColumnMetadata> columns = new ArrayList<>();
        for (SchemaStatement.IndexTarget target : s.targets()) {
            ColumnMetadata c = t.column(target.column());
            if (c == null) {
                throw new InvalidRequestException("Undefined column name " + target.column() + " in table " + t);
            }
            columns.add(c);
        }
        if (s.targets().isEmpty() && !custom) {
            throw new InvalidRequestException("Only CUSTOM indexes can be created without specifying a target column");
        }
        if (s.targets().size() > 1 && !custom) {
            throw new InvalidRequestException("Only CUSTOM indexes support multiple columns");
        }
        for (int i = 0; i < columns.size(); i++) {
            checkIndexTarget(t, columns.get(i), s.targets().get(i).kind(), targetKindName(s.targets().get(i).kind()));
        }
        if (custom) {
            if (s.name() != null && !s.name().matches("\\w+")) {
                throw new ConfigurationException("Illegal index name " + s.name());
            }
            checkCustomIndex(className, s.targets(), columns, options);
            throw unsupported("Custom indexes (SAI, SASI)");
        }
        SchemaStatement.IndexTarget target = s.targets().get(0);
        ColumnMetadata col = columns.get(0);
        String kind = targetKindName(target.kind());
        boolean collection = Types.kind(col.type()).isCollection();
        String name = s.name();
        if (name == null) {
            // Cassandra's default name (without the characters that are not word characters), made unique in the
            // keyspace with _1, _2, ...
            String base = (t.name() + "_" + col.name() + "_idx").replaceAll("\\W", "");
            name = base;
            for (int i = 1; indexNameTaken(ks, name); i++) {
                name = base + "_" + i;
            }
        }
        String quotedName = io.charybdis.node.cql.syntax.Identifiers.quoteIfNeeded(col.name());
        String targetOption = !collection ? quotedName : kind + "(" + quotedName + ")";
        for (IndexMetadata existing : t.indexes().values()) {
            if (existing.options().get("target").equals(targetOption)) {
                if (s.ifNotExists()) {
                    return null;
                }
                throw new InvalidRequestException("Index " + name + " is a duplicate of existing index "
                        + existing.name());
            }
        }
        if (!name.matches("\\w+")) {
            throw new ConfigurationException("Illegal index name " + name);
        }
        // the index's table lives in a directory named <table>.<index>-<id> (32 hex digits): one file name
        if (t.name().length() + 1 + name.length() + 33 > MAX_FILE_NAME) {
            throw new InvalidRequestException("Index name " + name + " is too long: with its table's name it must fit "
                    + "a file name of " + MAX_FILE_NAME + " characters (at most " + (MAX_FILE_NAME - 34 - t.name().length())
                    + " characters for an index of table " + t.name() + ")");
        }
        Map<String, IndexMetadata> indexes = new LinkedHashMap<>(t.indexes());
        indexes.put(name, new IndexMetadata(name, "COMPOSITES", Map.of("target", targetOption)));
        TableMetadata after = t.with(t.allColumns(), t.params(), t.nextCellId(), t.droppedColumns(), indexes);
        pending = schema.with(ks.withTable(after));
        return SchemaChange.table(SchemaChange.Change.UPDATED, t.keyspace(), t.name());
    }

    private static String targetKindName(SchemaStatement.IndexTargetKind kind) {
        return switch (kind) {
            case SIMPLE, VALUES -> "values";
            case KEYS -> "keys";
            case ENTRIES -> "entries";
            case FULL -> "full";
        };
    }

    private static final String SASI_CLASS = "org.apache.cassandra.index.sasi.SASIIndex";
    private static final String SAI_CLASS = "org.apache.cassandra.index.sai.StorageAttachedIndex";
    /** The options Cassandra 5.0's storage-attached index understands (besides class_name and target). */
    private static final Set<String> SAI_OPTIONS = Set.of("case_sensitive", "normalize", "ascii",
            "similarity_function", "optimize_for", "maximum_node_connections", "construction_beam_width");
    private static final List<String> SAI_ANALYZER_OPTIONS = List.of("normalize", "case_sensitive", "ascii");
    private static final List<String> SAI_VECTOR_OPTIONS = List.of("similarity_function", "optimize_for",
            "maximum_node_connections", "construction_beam_width");

    /**
     * The checks Cassandra makes of a custom index's class and options once its targets passed the general rules,
     * in its order: the class (the storage-attached index by its class name or its short names, any other name is
     * a class Cassandra cannot find), then the storage-attached index's options: unknown ones, its single target,
     * the analyzer options (string columns only), the vector options (vector columns only) and their values, and
     * vectors of floats only. Charybdis builds no custom index: the caller refuses a valid one.
     */
    private static void checkCustomIndex(String className, List<SchemaStatement.IndexTarget> targets,
                                         List<ColumnMetadata> columns, Map<String, String> options) {
        boolean sai = className.equals(SAI_CLASS) || className.equalsIgnoreCase("sai")
                || className.equalsIgnoreCase("StorageAttachedIndex");
        if (!sai) {
            throw new ConfigurationException("Unable to find custom indexer class '" + className + "'");
        }
        // Cassandra collects them in a HashMap(2) and prints its key set: the same order here
        Map<String, String> unknown = new java.util.HashMap<>(2);
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (!SAI_OPTIONS.contains(e.getKey())) {
                unknown.put(e.getKey(), e.getValue());
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigurationException("Properties specified " + unknown.keySet()
                    + " are not understood by StorageAttachedIndex");
        }
        if (targets.isEmpty()) {
            throw new InvalidRequestException("Failed to retrieve target column for: ");
        }
        if (targets.size() > 1) {
            throw new InvalidRequestException("A storage-attached index cannot be created over multiple columns: "
                    + String.join(", ", columns.stream().map(ColumnMetadata::name).toList()));
        }
        if (targets.get(0).kind() == SchemaStatement.IndexTargetKind.ENTRIES) {
            return; // map entries: a pair of types, neither analyzed nor a vector
        }
        DataType type = indexedValueType(columns.get(0), targets.get(0).kind());
        TypeKind kind = Types.kind(type);
        boolean string = kind == TypeKind.TEXT || kind == TypeKind.ASCII;
        for (String option : SAI_ANALYZER_OPTIONS) {
            String value = options.get(option);
            if (value == null) {
                continue;
            }
            if (!string) {
                throw new InvalidRequestException("CQL type " + Types.cqlName(type) + " cannot be analyzed.");
            }
            if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                throw new InvalidRequestException("Illegal value for boolean option '" + option + "': " + value);
            }
        }
        if (kind != TypeKind.VECTOR) {
            for (String option : SAI_VECTOR_OPTIONS) {
                if (options.containsKey(option)) {
                    throw new InvalidRequestException("CQL type " + Types.cqlName(type)
                            + " cannot have vector options");
                }
            }
            return;
        }
        if (options.containsKey("maximum_node_connections")) {
            throw new InvalidRequestException("Maximum node connections cannot be set without enabling "
                    + "SAI_VECTOR_ALLOW_CUSTOM_PARAMETERS");
        }
        if (options.containsKey("construction_beam_width")) {
            throw new InvalidRequestException("Construction beam width cannot be set without enabling "
                    + "SAI_VECTOR_ALLOW_CUSTOM_PARAMETERS");
        }
        String similarity = options.get("similarity_function");
        if (similarity != null && !Set.of("EUCLIDEAN", "DOT_PRODUCT", "COSINE")
                .contains(similarity.toUpperCase(java.util.Locale.ROOT))) {
            throw new InvalidRequestException("Similarity function " + similarity.toUpperCase(java.util.Locale.ROOT)
                    + " was not recognized for index null. Valid values are: EUCLIDEAN, DOT_PRODUCT, COSINE");
        }
        String optimizeFor = options.get("optimize_for");
        if (optimizeFor != null && !Set.of("LATENCY", "RECALL").contains(optimizeFor.toUpperCase(java.util.Locale.ROOT))) {
            throw new InvalidRequestException("optimize_for '" + optimizeFor.toUpperCase(java.util.Locale.ROOT)
                    + "' was not recognized for index null. Valid values are: LATENCY, RECALL");
        }
        if (Types.kind(Types.elementType(type)) != TypeKind.FLOAT) {
            throw new InvalidRequestException("SAI ANN indexes are only allowed on vector columns with float elements");
        }
    }

    /** The type of the values an index on {@code col} indexes: a collection's keys or values, else the column's. */
    private static DataType indexedValueType(ColumnMetadata col, SchemaStatement.IndexTargetKind target) {
        DataType type = col.type();
        TypeKind kind = Types.kind(type);
        if (target == SchemaStatement.IndexTargetKind.FULL || !kind.isCollection()) {
            return type;
        }
        if (kind == TypeKind.MAP) {
            return target == SchemaStatement.IndexTargetKind.KEYS ? Types.keyType(type) : Types.valueType(type);
        }
        return Types.elementType(type);
    }

    /** Cassandra's rules for the column of a native index and the kind of target on it. */
    private static void checkIndexTarget(TableMetadata t, ColumnMetadata col, SchemaStatement.IndexTargetKind target,
                                         String kind) {
        DataType type = col.type();
        TypeKind typeKind = Types.kind(type);
        if (TypeResolver.referencesDuration(type)) {
            if (typeKind.isCollection()) {
                throw new InvalidRequestException("Secondary indexes are not supported on collections containing durations");
            }
            if (typeKind == TypeKind.TUPLE) {
                throw new InvalidRequestException("Secondary indexes are not supported on tuples containing durations");
            }
            if (typeKind == TypeKind.UDT) {
                throw new InvalidRequestException("Secondary indexes are not supported on UDTs containing durations");
            }
            throw new InvalidRequestException("Secondary indexes are not supported on duration columns");
        }
        if (t.isCompactStorage() && col.isPrimaryKey()) {
            throw new InvalidRequestException("Secondary indexes are not supported on PRIMARY KEY columns in COMPACT "
                    + "STORAGE tables");
        }
        if (t.compactStorage() == CompactStorage.DENSE) {
            throw new InvalidRequestException("Secondary indexes are not supported on compact value column of COMPACT "
                    + "STORAGE tables");
        }
        if (col.kind() == ColumnMetadata.Kind.PARTITION_KEY && t.partitionKey().size() == 1) {
            throw new InvalidRequestException("Cannot create secondary index on the only partition key column "
                    + col.name());
        }
        boolean collection = typeKind.isCollection();
        if (target != SchemaStatement.IndexTargetKind.FULL && collection && !col.isMultiCell()) {
            throw new InvalidRequestException("Cannot create " + kind + "() index on frozen column " + col.name()
                    + ". Frozen collections are immutable and must be fully indexed by using the 'full(" + col.name()
                    + ")' modifier");
        }
        if (target == SchemaStatement.IndexTargetKind.FULL && (!collection || col.isMultiCell())) {
            throw new InvalidRequestException("full() indexes can only be created on frozen collections");
        }
        if (!collection && target != SchemaStatement.IndexTargetKind.SIMPLE) {
            throw new InvalidRequestException("Cannot create " + kind + "() index on " + col.name()
                    + ". Non-collection columns only support simple indexes");
        }
        if ((target == SchemaStatement.IndexTargetKind.KEYS || target == SchemaStatement.IndexTargetKind.ENTRIES)
                && typeKind != TypeKind.MAP) {
            throw new InvalidRequestException("Cannot create index on " + kind + " of column " + col.name()
                    + " with non-map type");
        }
        if (typeKind == TypeKind.UDT && col.isMultiCell()) {
            throw new InvalidRequestException("Cannot create index on non-frozen UDT column " + col.name());
        }
    }

    private SchemaChange dropIndex(Schema schema, DropIndex s, String currentKs) {
        String ksName = keyspaceOf(s.index(), currentKs);
        KeyspaceMetadata ks = schema.keyspace(ksName);
        if (ks != null) {
            for (TableMetadata t : ks.tables().values()) {
                if (t.indexes().containsKey(s.index().name())) {
                    Map<String, IndexMetadata> indexes = new LinkedHashMap<>(t.indexes());
                    indexes.remove(s.index().name());
                    pending = schema.with(ks.withTable(t.with(t.allColumns(), t.params(), t.nextCellId(),
                            t.droppedColumns(), indexes)));
                    return SchemaChange.table(SchemaChange.Change.UPDATED, ksName, t.name());
                }
            }
        }
        if (s.ifExists()) {
            return null;
        }
        throw new InvalidRequestException("Index '" + ksName + "." + s.index().name() + "' doesn't exist'");
    }
}
