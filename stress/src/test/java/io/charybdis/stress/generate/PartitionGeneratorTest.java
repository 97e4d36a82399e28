package io.charybdis.stress.generate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.charybdis.stress.dist.DistributionSpec;
import io.charybdis.stress.generate.ColumnModel.Kind;
import io.charybdis.stress.generate.PartitionGenerator.Partition;
import io.charybdis.stress.generate.PartitionGenerator.Row;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PartitionGeneratorTest {

    private static ColumnModel column(String name, Kind kind, DataType type, String size, String population, String cluster) {
        return new ColumnModel(name, kind, type, DistributionSpec.parse(size), DistributionSpec.parse(population),
                cluster == null ? null : DistributionSpec.parse(cluster));
    }

    /** (sensor text) at timestamp, kind int | reading double, payload blob, owner int static. */
    private static List<ColumnModel> events() {
        return List.of(
                column("sensor", Kind.PARTITION_KEY, DataTypes.TEXT, "fixed(12)", "uniform(1..100B)", null),
                column("at", Kind.CLUSTERING, DataTypes.TIMESTAMP, "uniform(4..8)", "uniform(1..100B)", "uniform(2..8)"),
                column("kind", Kind.CLUSTERING, DataTypes.INT, "uniform(4..8)", "uniform(1..5)", "fixed(2)"),
                column("reading", Kind.REGULAR, DataTypes.DOUBLE, "uniform(4..8)", "uniform(1..100B)", null),
                column("payload", Kind.REGULAR, DataTypes.BLOB, "uniform(16..64)", "uniform(1..100B)", null),
                column("owner", Kind.STATIC, DataTypes.INT, "uniform(4..8)", "uniform(1..100B)", null));
    }

    private static List<List<Object>> all(Partition p) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : p.rows()) {
            out.add(Arrays.asList(p.values(r)));
        }
        return out;
    }

    @Test
    void shouldMakeThePartitionOfASeedTheSameEveryTime() {
        PartitionGenerator a = new PartitionGenerator(events());
        PartitionGenerator b = new PartitionGenerator(events());
        for (long seed = 1; seed <= 200; seed++) {
            assertThat(all(b.partition(seed))).isEqualTo(all(a.partition(seed)));
        }
        assertThat(all(a.partition(1))).isNotEqualTo(all(a.partition(2)));
    }

    @Test
    void shouldFollowTheClusterDistributions() {
        PartitionGenerator g = new PartitionGenerator(events());
        Set<Integer> sizes = new HashSet<>();
        Set<Object> keys = new HashSet<>();
        for (long seed = 1; seed <= 500; seed++) {
            Partition p = g.partition(seed);
            List<Row> rows = p.rows();
            sizes.add(rows.size());
            assertThat(rows.size()).isBetween(2, 16);
            Set<Object> ats = new HashSet<>();
            Set<List<Object>> paths = new HashSet<>();
            for (Row r : rows) {
                Object[] v = p.values(r);
                assertThat(v[0]).isEqualTo(p.values(rows.get(0))[0]).asString().hasSize(12);
                assertThat(v[1]).isInstanceOf(Instant.class);
                assertThat((Integer) v[2]).isBetween(1, 5);
                assertThat(((ByteBuffer) v[4]).remaining()).isBetween(16, 64);
                assertThat(v[5]).isEqualTo(p.values(rows.get(0))[5]);
                ats.add(v[1]);
                assertThat(paths.add(Arrays.asList(r.clustering()))).as("distinct clustering").isTrue();
            }
            assertThat(ats.size()).isBetween(2, 8);
            keys.add(p.values(rows.get(0))[0]);
        }
        assertThat(sizes.size()).isGreaterThan(5);
        assertThat(keys).hasSize(500);
    }

    @Test
    void shouldPickRandomRowsAmongThePartitionsRows() {
        PartitionGenerator g = new PartitionGenerator(events());
        PartitionGenerator other = new PartitionGenerator(events());
        SplittableRandom random = new SplittableRandom(7);
        for (long seed = 1; seed <= 100; seed++) {
            Partition p = g.partition(seed);
            List<List<Object>> rows = all(other.partition(seed));
            Set<List<Object>> seen = new HashSet<>();
            for (int i = 0; i < 50; i++) {
                List<Object> row = Arrays.asList(p.values(p.randomRow(random)));
                assertThat(rows).contains(row);
                seen.add(row);
            }
            assertThat(seen.size()).isGreaterThan(1);
        }
    }

    @Test
    void shouldGiveConsecutiveValuesFromASequencePopulation() {
        PartitionGenerator g = new PartitionGenerator(List.of(
                column("k", Kind.PARTITION_KEY, DataTypes.BIGINT, "fixed(1)", "uniform(1..100B)", null),
                column("c", Kind.CLUSTERING, DataTypes.BIGINT, "fixed(1)", "seq(1..1000)", "fixed(10)")));
        Partition p = g.partition(42);
        List<Long> values = p.rows().stream().map(r -> (Long) r.clustering()[0]).toList();
        assertThat(values).hasSize(10);
        for (int i = 1; i < values.size(); i++) {
            assertThat(values.get(i)).isEqualTo(values.get(i - 1) % 1000 + 1);
        }
    }

    @Test
    void shouldMakeOneRowForATableWithoutClusteringColumns() {
        PartitionGenerator g = new PartitionGenerator(List.of(
                column("k", Kind.PARTITION_KEY, DataTypes.UUID, "fixed(1)", "uniform(1..100B)", null),
                column("v", Kind.REGULAR, DataTypes.TEXT, "fixed(20)", "uniform(1..100B)", null)));
        Partition p = g.partition(3);
        assertThat(p.rows()).hasSize(1);
        Object[] v = p.values(p.randomRow(new SplittableRandom()));
        assertThat(v[0]).isInstanceOf(UUID.class);
        assertThat((String) v[1]).hasSize(20).matches("[0-9A-Za-z_-]+");
    }

    @Test
    void shouldGenerateEachCqlType() {
        DistributionSpec three = DistributionSpec.parse("fixed(3)");
        assertThat(CqlValueGenerator.of(DataTypes.ASCII, three).value(5)).isInstanceOf(String.class).asString().hasSize(3);
        assertThat(CqlValueGenerator.of(DataTypes.INT, three).value(5)).isEqualTo(5);
        assertThat(CqlValueGenerator.of(DataTypes.SMALLINT, three).value(5)).isEqualTo((short) 5);
        assertThat(CqlValueGenerator.of(DataTypes.TINYINT, three).value(5)).isEqualTo((byte) 5);
        assertThat(CqlValueGenerator.of(DataTypes.BIGINT, three).value(5)).isEqualTo(5L);
        assertThat(CqlValueGenerator.of(DataTypes.TIMESTAMP, three).value(5)).isEqualTo(Instant.ofEpochMilli(5));
        UUID timeUuid = (UUID) CqlValueGenerator.of(DataTypes.TIMEUUID, three).value(1_700_000_000_000L);
        assertThat(timeUuid.version()).isEqualTo(1);
        assertThat(timeUuid.variant()).isEqualTo(2);
        assertThat((timeUuid.timestamp() - 0x01B21DD213814000L) / 10_000).isEqualTo(1_700_000_000_000L);
        UUID random = (UUID) CqlValueGenerator.of(DataTypes.UUID, three).value(5);
        assertThat(random.version()).isEqualTo(4);
        assertThat((List<?>) CqlValueGenerator.of(DataTypes.listOf(DataTypes.INT), three).value(5)).hasSize(3);
        assertThat((Set<?>) CqlValueGenerator.of(DataTypes.setOf(DataTypes.TEXT), three).value(5)).hasSize(3);
        assertThat((Map<?, ?>) CqlValueGenerator.of(DataTypes.mapOf(DataTypes.TEXT, DataTypes.BIGINT), three).value(5)).hasSize(3);
        assertThat(CqlValueGenerator.of(DataTypes.BLOB, three).value(5)).isEqualTo(CqlValueGenerator.of(DataTypes.BLOB, three).value(5));
        assertThatThrownBy(() -> new PartitionGenerator(List.of(column("t", Kind.PARTITION_KEY,
                DataTypes.tupleOf(DataTypes.INT, DataTypes.TEXT), "fixed(1)", "fixed(1)", null))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("column t: charybdis-stress cannot generate values of type frozen<tuple<int, text>>");
    }
}
