package io.charybdis.stress.generate;

import io.charybdis.stress.dist.Distribution;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The partitions of a user-profile table, each a pure function of its seed (drawn from {@code -pop}).
 *
 * <p>Implementation notes: every column draws identities from its own {@code population} sampler, seeded with
 * {@code mix(seed ^ salt)} where salt is MurmurHash3 of the column's name, and turns them into values with its
 * {@link CqlValueGenerator}. Partition key and static columns are seeded with the partition's seed. The clustering
 * rows form a tree: at level i under a prefix (the partition's seed at the top), the {@code cluster} sampler seeded
 * with the prefix gives how many values the level has, and the population sampler, seeded once with the prefix,
 * gives them in turn (so a {@code seq} population gives consecutive values); equal values are kept once. A child's
 * prefix is mixed from its parent's and the value's identity, and a complete row's prefix is the row's seed, which
 * seeds its regular columns. Not thread-safe: each load thread builds its own.
 */
public final class PartitionGenerator {

    private final List<ColumnModel> model;
    private final Column[] columns;
    private final int[] partitionKey;
    private final int[] clustering;

    public PartitionGenerator(List<ColumnModel> model) {
        this.model = List.copyOf(model);
        columns = new Column[model.size()];
        List<Integer> pk = new ArrayList<>();
        List<Integer> ck = new ArrayList<>();
        for (int i = 0; i < columns.length; i++) {
            ColumnModel c = model.get(i);
            columns[i] = new Column(c);
            if (c.kind() == ColumnModel.Kind.PARTITION_KEY) {
                pk.add(i);
            } else if (c.kind() == ColumnModel.Kind.CLUSTERING) {
                ck.add(i);
            }
        }
        partitionKey = pk.stream().mapToInt(Integer::intValue).toArray();
        clustering = ck.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The columns, in the order {@link Partition#values} returns them. */
    public List<ColumnModel> model() {
        return model;
    }

    public Partition partition(long seed) {
        Object[] key = new Object[partitionKey.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = columns[partitionKey[i]].draw(seed);
        }
        return new Partition(seed, key);
    }

    private static final class Column {
        final ColumnModel model;
        final long salt;
        final CqlValueGenerator values;
        final Distribution population;
        final Distribution cluster;

        Column(ColumnModel model) {
            this.model = model;
            this.salt = MurmurHash3.hash64(model.name().getBytes(StandardCharsets.UTF_8), 0);
            try {
                this.values = CqlValueGenerator.of(model.type(), model.size());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("column " + model.name() + ": " + e.getMessage(), e);
            }
            this.population = model.population().create();
            this.cluster = model.cluster() == null ? null : model.cluster().create();
        }

        /** The value for a partition or row seed. */
        Object draw(long seed) {
            population.setSeed(ValueGenerator.mix(seed ^ salt));
            return values.value(population.next());
        }
    }

    /** One clustering row: its clustering values (in clustering order) and the seed of its other columns. */
    public record Row(Object[] clustering, long seed) {
    }

    /** The values of one level of the clustering tree under a prefix, with the identities they came from. */
    private record Level(List<Object> values, long[] identities) {
    }

    /** A generated partition: its key, and its rows on demand. */
    public final class Partition {
        private final long seed;
        private final Object[] key;
        private List<Row> rows;

        private Partition(long seed, Object[] key) {
            this.seed = seed;
            this.key = key;
        }

        public long seed() {
            return seed;
        }

        /** Every row of the partition, depth first in generation order; computed once. */
        public List<Row> rows() {
            if (rows == null) {
                List<Row> out = new ArrayList<>();
                expand(0, seed, new Object[clustering.length], out);
                rows = out;
            }
            return rows;
        }

        /** One row, choosing a random value at each clustering level. */
        public Row randomRow(SplittableRandom random) {
            long prefix = seed;
            Object[] path = new Object[clustering.length];
            for (int level = 0; level < clustering.length; level++) {
                Level l = level(level, prefix);
                int j = random.nextInt(l.values().size());
                path[level] = l.values().get(j);
                prefix = child(prefix, l.identities()[j]);
            }
            return new Row(path, prefix);
        }

        /** The value of column {@code column} (an index into {@link #model()}) in {@code row}. */
        public Object value(int column, Row row) {
            Column c = columns[column];
            return switch (c.model.kind()) {
                case PARTITION_KEY -> key[indexOf(partitionKey, column)];
                case CLUSTERING -> row.clustering()[indexOf(clustering, column)];
                case STATIC -> c.draw(seed);
                case REGULAR -> c.draw(row.seed());
            };
        }

        /** All the columns' values of {@code row}, in {@link #model()} order. */
        public Object[] values(Row row) {
            Object[] out = new Object[columns.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = value(i, row);
            }
            return out;
        }

        private void expand(int level, long prefix, Object[] path, List<Row> out) {
            if (level == clustering.length) {
                out.add(new Row(path.clone(), prefix));
                return;
            }
            Level l = level(level, prefix);
            for (int j = 0; j < l.values().size(); j++) {
                path[level] = l.values().get(j);
                expand(level + 1, child(prefix, l.identities()[j]), path, out);
            }
        }

        private Level level(int level, long prefix) {
            Column c = columns[clustering[level]];
            c.cluster.setSeed(ValueGenerator.mix(prefix ^ ~c.salt));
            int n = (int) Math.max(1, c.cluster.next());
            c.population.setSeed(ValueGenerator.mix(prefix ^ c.salt));
            List<Object> values = new ArrayList<>(n);
            long[] identities = new long[n];
            Set<Object> seen = new HashSet<>();
            for (int j = 0; j < n; j++) {
                long id = c.population.next();
                Object v = c.values.value(id);
                if (seen.add(v)) {
                    identities[values.size()] = id;
                    values.add(v);
                }
            }
            return new Level(values, identities);
        }
    }

    private static long child(long prefix, long identity) {
        return ValueGenerator.mix(prefix * 31 + identity);
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        throw new IllegalArgumentException("column " + v);
    }
}
