package io.charybdis.node.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code target} option of an index names its column as Cassandra stores it: quoted when it needs quotes. */
class IndexMetadataTest {
    private static IndexMetadata target(String t) {
        return new IndexMetadata("i", "COMPOSITES", Map.of("target", t));
    }

    @Test
    void plainAndKindTargets() {
        assertEquals("v", target("v").targetColumn());
        assertEquals("values", target("v").targetKind());
        assertEquals("m", target("keys(m)").targetColumn());
        assertEquals("keys", target("keys(m)").targetKind());
        assertEquals("m", target("full(m)").targetColumn());
        assertEquals("full", target("full(m)").targetKind());
    }

    @Test
    void quotedNamesThatLookLikeKindsOrHoldQuotes() {
        assertEquals("keys(m)", target("\"keys(m)\"").targetColumn());
        assertEquals("values", target("\"keys(m)\"").targetKind());
        assertEquals("hi\"hello\"yo", target("\"hi\"\"hello\"\"yo\"").targetColumn());
        assertEquals("\"hi\"", target("\"\"\"hi\"\"\"").targetColumn());
        assertEquals("entries(m)", target("keys(\"entries(m)\")").targetColumn());
        assertEquals("keys", target("keys(\"entries(m)\")").targetKind());
        assertEquals("x y", target("values(\"x y\")").targetColumn());
        assertEquals("hEllo", target("\"hEllo\"").targetColumn());
    }
}
