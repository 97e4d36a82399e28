package io.charybdis.node.schema;

import io.charybdis.protocol.types.NativeType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shapes of COMPACT STORAGE tables as system_schema shows them (the facts are those recorded from Cassandra
 * 5.0.6 in conformance/compact.expected) and their survival through the stored schema document.
 */
class CompactStorageTest {

    private static TableMetadata table(CompactStorage compact, ColumnMetadata... columns) {
        return new TableMetadata("ks", "t", UUID.randomUUID(), List.of(columns), TableParams.defaults(), 8, Map.of(),
                Map.of(), false, compact);
    }

    private static ColumnMetadata pk(String name) {
        return new ColumnMetadata(name, NativeType.INT, ColumnMetadata.Kind.PARTITION_KEY, 0, false, -1);
    }

    private static ColumnMetadata ck(String name, int position) {
        return new ColumnMetadata(name, NativeType.INT, ColumnMetadata.Kind.CLUSTERING, position, false, -1);
    }

    private static ColumnMetadata regular(String name, int cellId) {
        return new ColumnMetadata(name, NativeType.INT, ColumnMetadata.Kind.REGULAR, -1, false, cellId);
    }

    @Test
    void shouldShowStaticCompactColumnsAsStaticWithHiddenClusteringAndValue() {
        TableMetadata t = table(CompactStorage.STATIC, pk("k"), regular("v", 0));
        assertThat(t.compactStorage().flags(t)).isEmpty();
        assertThat(t.compactStorage().schemaColumns(t)).containsExactlyInAnyOrder(
                new CompactStorage.SchemaColumn("k", "partition_key", 0, "none", "int"),
                new CompactStorage.SchemaColumn("v", "static", -1, "none", "int"),
                new CompactStorage.SchemaColumn("column1", "clustering", 0, "asc", "text"),
                new CompactStorage.SchemaColumn("value", "regular", -1, "none", "blob"));
        assertThat(t.compactStorage().writesRowMarker(t)).isFalse();
    }

    @Test
    void shouldNumberHiddenColumnsPastDeclaredNames() {
        // cs23 (k int PRIMARY KEY, value int, column1 int, value1 int): column2 and value2
        TableMetadata t = table(CompactStorage.STATIC, pk("k"), regular("value", 0), regular("column1", 1),
                regular("value1", 2));
        assertThat(CompactStorage.hiddenClusteringName(t)).isEqualTo("column2");
        assertThat(CompactStorage.hiddenValueName(t)).isEqualTo("value2");
    }

    @Test
    void shouldGiveDenseTablesWithoutValueAnEmptyValueAndARowMarker() {
        TableMetadata single = table(CompactStorage.DENSE, pk("k"), ck("c", 0));
        assertThat(single.compactStorage().flags(single)).containsExactly("dense");
        assertThat(single.compactStorage().schemaColumns(single))
                .contains(new CompactStorage.SchemaColumn("value", "regular", -1, "none", "empty"));
        assertThat(single.compactStorage().writesRowMarker(single)).isTrue();
        TableMetadata compound = table(CompactStorage.DENSE, pk("k"), ck("c1", 0), ck("c2", 1), regular("v", 0));
        assertThat(compound.compactStorage().flags(compound)).containsExactly("compound", "dense");
        assertThat(compound.compactStorage().writesRowMarker(compound)).isFalse();
    }

    @Test
    void shouldKeepCompactStorageThroughTheStoredSchema() {
        TableMetadata t = table(CompactStorage.DENSE, pk("k"), ck("c", 0), regular("v", 0));
        KeyspaceMetadata ks = new KeyspaceMetadata("ks", true, Map.of("class",
                "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", "1"), Map.of(), Map.of(), false)
                .withTable(t);
        Schema back = SchemaCodec.fromDocument(SchemaCodec.toDocument(Schema.empty().with(ks)));
        assertThat(back.table("ks", "t").compactStorage()).isEqualTo(CompactStorage.DENSE);
        TableMetadata plain = table(CompactStorage.NONE, pk("k"), regular("v", 0));
        Schema back2 = SchemaCodec.fromDocument(SchemaCodec.toDocument(Schema.empty().with(ks.withTable(plain))));
        assertThat(back2.table("ks", "t").compactStorage()).isEqualTo(CompactStorage.NONE);
        assertThat(plain.compactStorage().flags(plain)).containsExactly("compound");
    }
}
