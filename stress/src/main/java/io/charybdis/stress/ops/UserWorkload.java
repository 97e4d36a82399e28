package io.charybdis.stress.ops;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.servererrors.AlreadyExistsException;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.charybdis.stress.dist.Distribution;
import io.charybdis.stress.dist.DistributionSpec;
import io.charybdis.stress.dist.RatioSpec;
import io.charybdis.stress.generate.ColumnModel;
import io.charybdis.stress.generate.PartitionGenerator;
import io.charybdis.stress.generate.PartitionGenerator.Partition;
import io.charybdis.stress.generate.PartitionGenerator.Row;
import io.charybdis.stress.profile.StressProfile;
import io.charybdis.stress.profile.StressProfile.ColumnSpec;
import io.charybdis.stress.profile.StressProfile.QuerySpec;
import io.charybdis.stress.settings.InsertSettings;
import io.charybdis.stress.settings.SettingsException;
import io.charybdis.stress.settings.StressSettings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * The {@code user} command's workload: the tables, inserts and queries of one or more YAML profiles
 * ({@link StressProfile}), run as cassandra-stress runs them.
 *
 * <ul>
 *   <li>Schema: a missing keyspace or table is created from the profile's definitions, then its
 *       {@code extra_definitions} run ("already exists" is fine); the table's columns are then read from the
 *       cluster, as cassandra-stress reads them.</li>
 *   <li>Data: {@link PartitionGenerator} makes each partition from its {@code -pop} seed with the columnspec
 *       distributions (defaults: size {@value #DEFAULT_SIZE}, population {@value #DEFAULT_POPULATION},
 *       cluster {@value #DEFAULT_CLUSTER}; a counter column is incremented by its population, by default 1).</li>
 *   <li>{@code insert}: a batch of {@code partitions} partitions (one seed each), of each the {@code select}
 *       ratio of its rows (at least one), written with {@code INSERT INTO t (all columns) VALUES (?, ...)}, or
 *       {@code UPDATE t SET c = c + ? WHERE key} for a counter table, as a {@code batchtype} batch (LOGGED by
 *       default, COUNTER for counter tables); a batch of one statement is sent alone. {@code -insert} overrides the
 *       profile. It reports the partitions and rows written.</li>
 *   <li>A query: prepared once, each bind marker bound to the generated value of the column it stands for, in one
 *       partition: with {@code fields: samerow} all from one random row, with {@code multirow} each from any row.
 *       It reports the rows returned (all pages) and the partition if any row came back; an empty result is not
 *       an error (cassandra-stress does not validate user queries).</li>
 * </ul>
 * Statements are always prepared (whatever {@code -mode} says), since binding needs their bind markers' columns.
 * Operations are named in {@code ops(...)} as {@code insert} or a query's name, or with several profiles
 * {@code specname.insert}, {@code specname.query} (specname defaults to keyspace.table); all the profiles must use
 * one keyspace, which the load session uses.
 */
public final class UserWorkload implements Workload {

    static final String DEFAULT_SIZE = "uniform(4..8)";
    static final String DEFAULT_POPULATION = "uniform(1..100B)";
    static final String DEFAULT_CLUSTER = "fixed(1)";
    private static final String INSERT = "insert";

    private final StressSettings settings;
    private final List<ProfileTable> tables;
    private final List<OpRef> ops;
    private final ConsistencyLevel cl;

    /** An entry of ops(...): its report name and weight, and what it runs (query null: the insert). */
    private record OpRef(String name, double weight, ProfileTable table, QuerySpec query) {
    }

    private UserWorkload(StressSettings settings, List<ProfileTable> tables, List<OpRef> ops) {
        this.settings = settings;
        this.tables = tables;
        this.ops = ops;
        this.cl = DefaultConsistencyLevel.valueOf(settings.command().consistencyLevel());
    }

    /** Reads the profiles and resolves ops(...); a bad profile or operation name is a {@link SettingsException}. */
    public static UserWorkload load(StressSettings settings) {
        List<ProfileTable> tables = new ArrayList<>();
        for (String location : settings.command().profiles()) {
            tables.add(new ProfileTable(StressProfile.load(location)));
        }
        for (ProfileTable t : tables) {
            if (!t.keyspace.equals(tables.get(0).keyspace)) {
                throw new SettingsException("Profiles " + tables.get(0).profile.source() + " and " + t.profile.source()
                        + " use different keyspaces (" + tables.get(0).profile.keyspace() + ", " + t.profile.keyspace()
                        + "); charybdis-stress runs profiles of one keyspace together");
            }
        }
        List<OpRef> ops = new ArrayList<>();
        settings.command().ops().forEach((name, weight) -> ops.add(resolve(name, weight, tables)));
        return new UserWorkload(settings, List.copyOf(tables), List.copyOf(ops));
    }

    private static OpRef resolve(String name, double weight, List<ProfileTable> tables) {
        ProfileTable table;
        String op;
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            String qualifier = name.substring(0, dot);
            op = name.substring(dot + 1);
            table = tables.stream().filter(t -> t.profile.qualifier().equalsIgnoreCase(qualifier)).findFirst()
                    .orElseThrow(() -> new SettingsException("Unknown operation " + name + " in ops(...): no profile is named "
                            + qualifier + " (profiles: " + String.join(", ", tables.stream().map(t -> t.profile.qualifier()).toList())
                            + ")"));
        } else if (tables.size() > 1) {
            throw new SettingsException("Operation " + name + " in ops(...) is ambiguous with several profiles: name it "
                    + "<specname>." + name + " (specnames: "
                    + String.join(", ", tables.stream().map(t -> t.profile.qualifier()).toList()) + ")");
        } else {
            table = tables.get(0);
            op = name;
        }
        if (op.equalsIgnoreCase(INSERT)) {
            return new OpRef(name, weight, table, null);
        }
        Map<String, QuerySpec> queries = table.profile.queries();
        QuerySpec q = queries.get(op);
        if (q == null) {
            q = queries.values().stream().filter(s -> s.name().equalsIgnoreCase(op)).findFirst().orElse(null);
        }
        if (q != null) {
            return new OpRef(name, weight, table, q);
        }
        if (table.profile.tokenRangeQueries().contains(op)) {
            throw new SettingsException("Operation " + name + " in ops(...) is one of the token_range_queries of profile "
                    + table.profile.source() + ", which charybdis-stress does not run yet");
        }
        List<String> known = new ArrayList<>();
        known.add(INSERT);
        known.addAll(queries.keySet());
        throw new SettingsException("Unknown operation " + name + " in ops(...): profile " + table.profile.source()
                + " defines " + String.join(", ", known));
    }

    @Override
    public String keyspace() {
        return tables.get(0).keyspace.asInternal();
    }

    @Override
    public void describe(PrintStream out) {
        for (ProfileTable t : tables) {
            StressProfile p = t.profile;
            out.println("  Profile: " + p.source());
            out.println("    Keyspace Name: " + p.keyspace());
            out.println("    Keyspace CQL: " + indented(p.keyspaceDefinition()));
            out.println("    Table Name: " + p.table());
            out.println("    Table CQL: " + indented(p.tableDefinition()));
            out.println("    Extra Schema Definitions: " + indented(String.valueOf(p.extraDefinitions())));
            out.println("    Generator Configs:");
            for (ColumnSpec c : p.columnSpecs().values()) {
                out.println("      " + c.name() + ":" + (c.size() == null ? "" : " size=" + c.size())
                        + (c.population() == null ? "" : " population=" + c.population())
                        + (c.cluster() == null ? "" : " cluster=" + c.cluster()));
            }
            out.println("    Query Definitions:");
            for (QuerySpec q : p.queries().values()) {
                out.println("      " + q.name() + ": " + indented(q.cql()) + " (fields: " + (q.multirow() ? "multirow" : "samerow") + ")");
            }
            String batch = t.batchType(settings);
            out.println("    Insert Settings: partitions=" + t.partitions(settings) + ", select=" + t.select(settings)
                    + ", batchtype=" + (batch == null ? "LOGGED (COUNTER for a counter table)" : batch));
        }
    }

    /** Multi-line text with its continuation lines indented under the settings dump's entries. */
    private static String indented(String text) {
        return text == null ? "null" : text.replace("\n", "\n        ");
    }

    @Override
    public boolean createSchema(CqlSession session, PrintStream out) {
        boolean created = false;
        for (ProfileTable t : tables) {
            created |= t.createSchema(session);
        }
        return created;
    }

    @Override
    public void truncate(CqlSession session) {
        Set<String> done = new HashSet<>();
        for (ProfileTable t : tables) {
            if (done.add(t.qualifiedName())) {
                session.execute(SimpleStatement.newInstance("TRUNCATE " + t.qualifiedName()));
            }
        }
    }

    @Override
    public void prepare(CqlSession session, PrintStream out) {
        for (ProfileTable t : tables) {
            boolean inserts = ops.stream().anyMatch(o -> o.table == t && o.query == null);
            List<QuerySpec> queries = ops.stream().filter(o -> o.table == t && o.query != null).map(OpRef::query).toList();
            t.prepare(session, settings, inserts, queries, out);
        }
    }

    @Override
    public List<String> operationNames() {
        return ops.stream().map(OpRef::name).toList();
    }

    @Override
    public double[] weights() {
        return ops.stream().mapToDouble(OpRef::weight).toArray();
    }

    @Override
    public List<Operation> newOperations() {
        List<Operation> out = new ArrayList<>();
        for (OpRef o : ops) {
            out.add(o.query == null ? new InsertOp(o) : new QueryOp(o));
        }
        return out;
    }

    /** One profile's table: its schema, column model and prepared statements. */
    private static final class ProfileTable {
        final StressProfile profile;
        final CqlIdentifier keyspace;
        final CqlIdentifier table;
        List<ColumnModel> model;
        PreparedStatement insert;
        /** Bind position of the insert's variables: indexes into {@link #model}. */
        int[] insertColumns;
        DefaultBatchType batchType;
        final Map<String, PreparedQuery> queries = new LinkedHashMap<>();

        ProfileTable(StressProfile profile) {
            this.profile = profile;
            this.keyspace = CqlIdentifier.fromCql(profile.keyspace());
            this.table = CqlIdentifier.fromCql(profile.table());
        }

        String qualifiedName() {
            return keyspace.asCql(true) + "." + table.asCql(true);
        }

        DistributionSpec partitions(StressSettings s) {
            InsertSettings i = s.insert();
            return i.partitions() != null ? i.partitions()
                    : profile.insert().partitions() != null ? profile.insert().partitions() : DistributionSpec.fixed(1);
        }

        RatioSpec select(StressSettings s) {
            InsertSettings i = s.insert();
            return i.selectRatio() != null ? i.selectRatio()
                    : profile.insert().select() != null ? profile.insert().select() : RatioSpec.ONE;
        }

        /** The batch type given on the command line or in the profile, or null. */
        String batchType(StressSettings s) {
            return s.insert().batchType() != null ? s.insert().batchType() : profile.insert().batchType();
        }

        boolean createSchema(CqlSession session) {
            boolean created = false;
            if (session.getMetadata().getKeyspace(keyspace).isEmpty()) {
                if (profile.keyspaceDefinition() == null) {
                    throw error("keyspace " + profile.keyspace() + " does not exist and the profile has no keyspace_definition");
                }
                created |= ddl(session, profile.keyspaceDefinition(), "keyspace_definition");
            }
            Optional<KeyspaceMetadata> ks = session.getMetadata().getKeyspace(keyspace);
            if (ks.isEmpty() || ks.get().getTable(table).isEmpty()) {
                if (profile.tableDefinition() == null) {
                    throw error("table " + profile.keyspace() + "." + profile.table()
                            + " does not exist and the profile has no table_definition");
                }
                ddl(session, "USE " + keyspace.asCql(true), "USE");
                created |= ddl(session, profile.tableDefinition(), "table_definition");
            }
            if (!profile.extraDefinitions().isEmpty()) {
                ddl(session, "USE " + keyspace.asCql(true), "USE");
            }
            for (String extra : profile.extraDefinitions()) {
                ddl(session, extra, "extra_definitions statement");
            }
            return created;
        }

        /** Runs a definition; false if what it creates already exists. */
        private boolean ddl(CqlSession session, String cql, String what) {
            try {
                SchemaCreator.execute(session, cql);
                return true;
            } catch (AlreadyExistsException e) {
                return false;
            } catch (DriverException e) {
                if (String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("already exists")) {
                    return false;
                }
                throw error("the " + what + " failed: " + e.getMessage() + "\n  " + cql);
            }
        }

        void prepare(CqlSession session, StressSettings settings, boolean inserts, List<QuerySpec> used, PrintStream out) {
            TableMetadata meta = session.getMetadata().getKeyspace(keyspace).flatMap(k -> k.getTable(table))
                    .orElseThrow(() -> error("table " + profile.keyspace() + "." + profile.table() + " does not exist"));
            model = model(meta, out);
            try {
                new PartitionGenerator(model);
            } catch (IllegalArgumentException e) {
                throw error(e.getMessage());
            }
            if (inserts) {
                prepareInsert(session, settings, out);
            }
            for (QuerySpec q : used) {
                if (!queries.containsKey(q.name())) {
                    queries.put(q.name(), prepareQuery(session, q));
                }
            }
        }

        private List<ColumnModel> model(TableMetadata meta, PrintStream out) {
            Map<CqlIdentifier, ColumnSpec> specs = new LinkedHashMap<>();
            for (ColumnSpec c : profile.columnSpecs().values()) {
                CqlIdentifier id = columnId(meta, c.name());
                if (id == null) {
                    throw error("columnspec names column " + c.name() + ", which table " + profile.keyspace() + "."
                            + profile.table() + " does not have (its columns: " + String.join(", ",
                            meta.getColumns().keySet().stream().map(CqlIdentifier::asInternal).toList()) + ")");
                }
                specs.put(id, c);
            }
            List<ColumnModel> columns = new ArrayList<>();
            Set<CqlIdentifier> keyColumns = new HashSet<>();
            for (ColumnMetadata c : meta.getPartitionKey()) {
                columns.add(column(c, ColumnModel.Kind.PARTITION_KEY, specs.get(c.getName()), out));
                keyColumns.add(c.getName());
            }
            for (ColumnMetadata c : meta.getClusteringColumns().keySet()) {
                columns.add(column(c, ColumnModel.Kind.CLUSTERING, specs.get(c.getName()), out));
                keyColumns.add(c.getName());
            }
            for (ColumnMetadata c : meta.getColumns().values()) {
                if (!keyColumns.contains(c.getName())) {
                    columns.add(column(c, c.isStatic() ? ColumnModel.Kind.STATIC : ColumnModel.Kind.REGULAR,
                            specs.get(c.getName()), out));
                }
            }
            return List.copyOf(columns);
        }

        /** The table's column a columnspec name stands for (as CQL, or exactly as stored), or null. */
        private static CqlIdentifier columnId(TableMetadata meta, String name) {
            CqlIdentifier asCql = CqlIdentifier.fromCql(name.startsWith("\"") ? name : name.toLowerCase(Locale.ROOT));
            if (meta.getColumn(asCql).isPresent()) {
                return asCql;
            }
            CqlIdentifier exact = CqlIdentifier.fromInternal(name);
            return meta.getColumn(exact).isPresent() ? exact : null;
        }

        private ColumnModel column(ColumnMetadata c, ColumnModel.Kind kind, ColumnSpec spec, PrintStream out) {
            String name = c.getName().asInternal();
            boolean counter = c.getType().equals(DataTypes.COUNTER);
            DistributionSpec size = spec != null && spec.size() != null ? spec.size() : DistributionSpec.parse(DEFAULT_SIZE);
            DistributionSpec population = spec != null && spec.population() != null ? spec.population()
                    : DistributionSpec.parse(counter ? "fixed(1)" : DEFAULT_POPULATION);
            DistributionSpec cluster = null;
            if (kind == ColumnModel.Kind.CLUSTERING) {
                cluster = spec != null && spec.cluster() != null ? spec.cluster() : DistributionSpec.parse(DEFAULT_CLUSTER);
            } else if (spec != null && spec.cluster() != null) {
                out.println("Warning: profile " + profile.source() + ": cluster is ignored for column " + name
                        + ", which is not a clustering column");
            }
            return new ColumnModel(name, kind, c.getType(), size, population, cluster);
        }

        private void prepareInsert(CqlSession session, StressSettings settings, PrintStream out) {
            boolean counter = model.stream().anyMatch(c -> c.type().equals(DataTypes.COUNTER));
            String given = batchType(settings);
            batchType = given == null ? (counter ? DefaultBatchType.COUNTER : DefaultBatchType.LOGGED) : DefaultBatchType.valueOf(given);
            if (counter != (batchType == DefaultBatchType.COUNTER)) {
                throw error("batchtype " + batchType + (counter ? " cannot write counter table " : " is only for counter tables, not ")
                        + profile.table() + (counter ? "; use COUNTER" : ""));
            }
            List<Integer> bind = new ArrayList<>();
            StringBuilder cql = new StringBuilder();
            if (counter) {
                cql.append("UPDATE ").append(qualifiedName()).append(" SET ");
                String sep = "";
                for (int i = 0; i < model.size(); i++) {
                    ColumnModel c = model.get(i);
                    if (c.kind() == ColumnModel.Kind.REGULAR || c.kind() == ColumnModel.Kind.STATIC) {
                        String n = CqlIdentifier.fromInternal(c.name()).asCql(true);
                        cql.append(sep).append(n).append(" = ").append(n).append(" + ?");
                        sep = ", ";
                        bind.add(i);
                    }
                }
                sep = " WHERE ";
                for (int i = 0; i < model.size(); i++) {
                    ColumnModel c = model.get(i);
                    if (c.kind() == ColumnModel.Kind.PARTITION_KEY || c.kind() == ColumnModel.Kind.CLUSTERING) {
                        cql.append(sep).append(CqlIdentifier.fromInternal(c.name()).asCql(true)).append(" = ?");
                        sep = " AND ";
                        bind.add(i);
                    }
                }
            } else {
                cql.append("INSERT INTO ").append(qualifiedName()).append(" (");
                for (int i = 0; i < model.size(); i++) {
                    cql.append(i == 0 ? "" : ", ").append(CqlIdentifier.fromInternal(model.get(i).name()).asCql(true));
                    bind.add(i);
                }
                cql.append(") VALUES (").append("?, ".repeat(model.size() - 1)).append("?)");
            }
            insertColumns = bind.stream().mapToInt(Integer::intValue).toArray();
            insert = prepare(session, cql.toString(), "the insert");
            InsertSettings cmd = settings.insert();
            DistributionSpec visits = profile.insert().visits() != null ? profile.insert().visits() : cmd.visits();
            if (visits.max() > 1 || profile.insert().rowPopulationRatio() != null || cmd.rowPopulationRatio() != null) {
                out.println("Warning: visits and row-population-ratio are not supported yet; each insert writes its"
                        + " selected rows in one visit");
            }
            DistributionSpec partitions = partitions(settings);
            RatioSpec select = select(settings);
            double minRows = 1;
            double maxRows = 1;
            for (ColumnModel c : model) {
                if (c.kind() == ColumnModel.Kind.CLUSTERING) {
                    minRows *= Math.max(1, c.cluster().min());
                    maxRows *= Math.max(1, c.cluster().max());
                }
            }
            long minPartitions = Math.max(1, partitions.min());
            long maxPartitions = Math.max(1, partitions.max());
            out.printf(Locale.ROOT, "Generating batches with [%d..%d] partitions and [%.0f..%.0f] rows (of [%.0f..%.0f] "
                            + "total rows in the partitions)%n", minPartitions, maxPartitions,
                    (double) minPartitions * Math.max(1, Math.round(select.min() * minRows)),
                    (double) maxPartitions * Math.max(1, Math.round(select.max() * maxRows)), minRows, maxRows);
        }

        private PreparedQuery prepareQuery(CqlSession session, QuerySpec q) {
            PreparedStatement ps = prepare(session, q.cql(), "query " + q.name());
            List<Integer> columns = new ArrayList<>();
            for (ColumnDefinition v : ps.getVariableDefinitions()) {
                int index = -1;
                for (int i = 0; i < model.size(); i++) {
                    if (CqlIdentifier.fromInternal(model.get(i).name()).equals(v.getName())) {
                        index = i;
                    }
                }
                if (index < 0) {
                    throw error("query " + q.name() + " has a bind marker for " + v.getName().asInternal()
                            + ", which is not a column of table " + profile.table()
                            + " (bind markers can only stand for column values)");
                }
                columns.add(index);
            }
            return new PreparedQuery(ps, columns.stream().mapToInt(Integer::intValue).toArray(), q.multirow());
        }

        private PreparedStatement prepare(CqlSession session, String cql, String what) {
            try {
                return session.prepare(SimpleStatement.newInstance(cql));
            } catch (DriverException e) {
                throw error(what + " could not be prepared: " + e.getMessage() + "\n  " + cql);
            }
        }

        private SettingsException error(String message) {
            return new SettingsException("Profile " + profile.source() + ": " + message);
        }
    }

    /** A prepared query and, per bind marker, the column (index into the model) whose value it takes. */
    private record PreparedQuery(PreparedStatement statement, int[] columns, boolean multirow) {
    }

    /** A user profile's insert: batches of partitions' rows. */
    private final class InsertOp implements Operation {
        private final OpRef ref;
        private final ProfileTable table;
        private final PartitionGenerator generator;
        private final SplittableRandom random = new SplittableRandom();
        private final Distribution partitions;
        private final RatioSpec.Sampler select;

        InsertOp(OpRef ref) {
            this.ref = ref;
            this.table = ref.table;
            this.generator = new PartitionGenerator(table.model);
            this.partitions = table.partitions(settings).create();
            this.partitions.setSeed(random.nextLong());
            this.select = table.select(settings).create();
            this.select.setSeed(random.nextLong());
        }

        @Override
        public String name() {
            return ref.name;
        }

        @Override
        public Bound bind(LongSupplier seeds) {
            int n = (int) Math.max(1, partitions.next());
            List<BatchableStatement<?>> statements = new ArrayList<>();
            long first = 0;
            for (int p = 0; p < n; p++) {
                long seed = seeds.getAsLong();
                if (p == 0) {
                    first = seed;
                }
                Partition partition = generator.partition(seed);
                for (Row row : choose(partition.rows())) {
                    Object[] values = partition.values(row);
                    Object[] bound = new Object[table.insertColumns.length];
                    for (int i = 0; i < bound.length; i++) {
                        bound[i] = values[table.insertColumns[i]];
                    }
                    statements.add(table.insert.bind(bound));
                }
            }
            Statement<?> s = statements.size() == 1 ? statements.get(0)
                    : BatchStatement.newInstance(table.batchType, statements);
            return Bound.write(s.setConsistencyLevel(cl), first, n, statements.size());
        }

        /** The select ratio of the rows (at least one), in their order. */
        private List<Row> choose(List<Row> rows) {
            int total = rows.size();
            int k = (int) Math.max(1, Math.min(total, Math.round(select.next() * total)));
            if (k == total) {
                return rows;
            }
            int[] index = new int[total];
            for (int i = 0; i < total; i++) {
                index[i] = i;
            }
            for (int i = 0; i < k; i++) {
                int j = i + random.nextInt(total - i);
                int t = index[i];
                index[i] = index[j];
                index[j] = t;
            }
            java.util.Arrays.sort(index, 0, k);
            List<Row> out = new ArrayList<>(k);
            for (int i = 0; i < k; i++) {
                out.add(rows.get(index[i]));
            }
            return out;
        }
    }

    /** A user profile's named query, bound from one generated partition. */
    private final class QueryOp implements Operation {
        private final OpRef ref;
        private final PreparedQuery query;
        private final PartitionGenerator generator;
        private final SplittableRandom random = new SplittableRandom();

        QueryOp(OpRef ref) {
            this.ref = ref;
            this.query = ref.table.queries.get(ref.query.name());
            this.generator = new PartitionGenerator(ref.table.model);
        }

        @Override
        public String name() {
            return ref.name;
        }

        @Override
        public Bound bind(LongSupplier seeds) {
            long seed = seeds.getAsLong();
            Partition partition = generator.partition(seed);
            int[] columns = query.columns();
            Object[] values = new Object[columns.length];
            Row row = null;
            for (int i = 0; i < columns.length; i++) {
                if (row == null || query.multirow()) {
                    row = partition.randomRow(random);
                }
                values[i] = partition.value(columns[i], row);
            }
            return Bound.read(query.statement().bind(values).setConsistencyLevel(cl), seed, false);
        }
    }
}
