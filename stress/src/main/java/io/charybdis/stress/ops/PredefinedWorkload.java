package io.charybdis.stress.ops;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.charybdis.stress.dist.Distribution;
import io.charybdis.stress.generate.KeyGenerator;
import io.charybdis.stress.generate.ValueGenerator;
import io.charybdis.stress.settings.Command;
import io.charybdis.stress.settings.StressSettings;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * cassandra-stress's legacy commands on {@code standard1} and {@code counter1}, with the statements it prepares:
 * <pre>
 * UPDATE "standard1" SET "C0" = ?,"C1" = ?,... WHERE KEY=?
 * SELECT "C0","C1",... FROM "standard1" WHERE KEY=?
 * UPDATE "counter1" SET "C0"="C0"+?,... WHERE KEY=?
 * SELECT "C0","C1",... FROM "counter1" WHERE KEY=?
 * </pre>
 * A write touches the first {@code n} columns, n drawn from {@code -col n=} per partition.
 */
public final class PredefinedWorkload implements Workload {

    private final StressSettings settings;
    private final List<Command> kinds;
    private final double[] weights;
    private final ConsistencyLevel cl;
    private final List<String> columns;
    private final PreparedStatement[] writes;
    private final PreparedStatement[] counterWrites;
    private PreparedStatement read;
    private PreparedStatement counterRead;

    public PredefinedWorkload(StressSettings settings) {
        this.settings = settings;
        Command type = settings.command().type();
        if (type == Command.MIXED) {
            kinds = List.copyOf(settings.command().ratios().keySet());
            weights = settings.command().ratios().values().stream().mapToDouble(Double::doubleValue).toArray();
        } else {
            kinds = List.of(type);
            weights = new double[] {1};
        }
        cl = DefaultConsistencyLevel.valueOf(settings.command().consistencyLevel());
        columns = settings.columns().names();
        writes = new PreparedStatement[columns.size() + 1];
        counterWrites = new PreparedStatement[columns.size() + 1];
    }

    @Override
    public String keyspace() {
        return settings.schema().keyspace();
    }

    @Override
    public boolean createSchema(CqlSession session, PrintStream out) {
        return new SchemaCreator(settings).create(session, columns);
    }

    @Override
    public void truncate(CqlSession session) {
        for (Command k : kinds) {
            String table = isCounter(k) ? "counter1" : "standard1";
            session.execute(SimpleStatement.newInstance("TRUNCATE " + quote(keyspace()) + "." + quote(table)));
        }
    }

    private static boolean isCounter(Command k) {
        return k == Command.COUNTER_READ || k == Command.COUNTER_WRITE;
    }

    static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    static String writeCql(List<String> columns, int n) {
        StringBuilder sb = new StringBuilder("UPDATE \"standard1\" SET ");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append(quote(columns.get(i))).append(" = ?");
        }
        return sb.append(" WHERE KEY=?").toString();
    }

    static String counterWriteCql(List<String> columns, int n) {
        StringBuilder sb = new StringBuilder("UPDATE \"counter1\" SET ");
        for (int i = 0; i < n; i++) {
            String c = quote(columns.get(i));
            sb.append(i == 0 ? "" : ",").append(c).append('=').append(c).append("+?");
        }
        return sb.append(" WHERE KEY=?").toString();
    }

    static String readCql(List<String> columns, String table) {
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(quote(columns.get(i)));
        }
        return sb.append(" FROM ").append(quote(table)).append(" WHERE KEY=?").toString();
    }

    @Override
    public void prepare(CqlSession session, PrintStream out) {
        if (!settings.mode().prepared()) {
            return;
        }
        int lo = (int) settings.columns().count().min();
        for (Command k : kinds) {
            switch (k) {
                case WRITE -> {
                    for (int n = lo; n <= columns.size(); n++) {
                        writes[n] = session.prepare(writeCql(columns, n));
                    }
                }
                case COUNTER_WRITE -> {
                    for (int n = lo; n <= columns.size(); n++) {
                        counterWrites[n] = session.prepare(counterWriteCql(columns, n));
                    }
                }
                case READ -> read = session.prepare(readCql(columns, "standard1"));
                case COUNTER_READ -> counterRead = session.prepare(readCql(columns, "counter1"));
                default -> throw new IllegalStateException(k.name());
            }
        }
    }

    @Override
    public List<String> operationNames() {
        return kinds.stream().map(Command::name).toList();
    }

    @Override
    public double[] weights() {
        return weights.clone();
    }

    @Override
    public List<Operation> newOperations() {
        List<Operation> out = new ArrayList<>();
        for (Command k : kinds) {
            out.add(new Op(k));
        }
        return out;
    }

    private final class Op implements Operation {
        private final Command kind;
        private final KeyGenerator keys = new KeyGenerator(settings.command().keySize());
        private final ValueGenerator values = new ValueGenerator(settings.columns().size());
        private final Distribution columnCount = settings.columns().count().create();
        private final Distribution add = settings.command().add().create();
        private final boolean validate = !settings.errors().skipReadValidation();

        Op(Command kind) {
            this.kind = kind;
        }

        @Override
        public String name() {
            return kind.name();
        }

        @Override
        public Bound bind(LongSupplier seeds) {
            long seed = seeds.getAsLong();
            ByteBuffer key = ByteBuffer.wrap(keys.key(seed));
            Statement<?> s = switch (kind) {
                case WRITE -> {
                    int n = count(seed);
                    Object[] v = new Object[n + 1];
                    for (int i = 0; i < n; i++) {
                        v[i] = values.value(seed, i);
                    }
                    v[n] = key;
                    yield bound(writes[n], () -> writeCql(columns, n), v);
                }
                case COUNTER_WRITE -> {
                    int n = count(seed);
                    Object[] v = new Object[n + 1];
                    for (int i = 0; i < n; i++) {
                        v[i] = add.next();
                    }
                    v[n] = key;
                    yield bound(counterWrites[n], () -> counterWriteCql(columns, n), v);
                }
                case READ -> bound(read, () -> readCql(columns, "standard1"), key);
                case COUNTER_READ -> bound(counterRead, () -> readCql(columns, "counter1"), key);
                default -> throw new IllegalStateException(kind.name());
            };
            s = s.setConsistencyLevel(cl);
            return kind.isWrite() ? Bound.write(s, seed, 1, 1) : Bound.read(s, seed, validate);
        }

        private int count(long seed) {
            columnCount.setSeed(seed);
            return (int) Math.min(columns.size(), Math.max(1, columnCount.next()));
        }

        private Statement<?> bound(PreparedStatement ps, java.util.function.Supplier<String> cql, Object... values) {
            if (ps != null) {
                return ps.bind(values);
            }
            return SimpleStatement.newInstance(cql.get(), values);
        }
    }

    /** Exposed for the settings dump and tests. */
    public Map<String, Double> ratios() {
        Map<String, Double> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kinds.size(); i++) {
            m.put(kinds.get(i).name(), weights[i]);
        }
        return m;
    }
}
