package io.charybdis.node.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A deliberately simple model of Cassandra's semantics for the table
 * {@code (pk int, ck int, v int, w text, st int static, tags set<int>, PRIMARY KEY (pk, ck))}: every write is a
 * timestamped cell, marker or tombstone; reads reconcile them with Cassandra's rules (higher timestamp wins; on a
 * tie a tombstone wins, then the greater value; deletions shadow data with timestamps at or below theirs).
 */
final class CassandraModel {
    /** A cell version: a value or a tombstone (value null). */
    record Cell(long ts, Object value) {
        boolean beats(Cell other) {
            if (other == null || ts != other.ts) {
                return other == null || ts > other.ts;
            }
            if (value == null || other.value == null) {
                return value == null;
            }
            return compareValues(value, other.value) > 0;
        }
    }

    static int compareValues(Object a, Object b) {
        if (a instanceof Integer x && b instanceof Integer y) {
            return Integer.compareUnsigned(x, y);
        }
        return compareUtf8(a.toString(), b.toString());
    }

    static int compareUtf8(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static final class RowState {
        Cell marker;
        long rowDeletion = Long.MIN_VALUE;
        final Map<String, Cell> cells = new TreeMap<>();
        final Map<Integer, Cell> tags = new TreeMap<>();
        long tagsDeletion = Long.MIN_VALUE;
    }

    record RangeTombstone(int from, int to, long ts) {
    }

    static final class PartitionState {
        long deletion = Long.MIN_VALUE;
        final List<RangeTombstone> ranges = new ArrayList<>();
        final TreeMap<Integer, RowState> rows = new TreeMap<>();
        Cell staticCell;
    }

    final TreeMap<Integer, PartitionState> partitions = new TreeMap<>();

    private PartitionState partition(int pk) {
        return partitions.computeIfAbsent(pk, k -> new PartitionState());
    }

    private RowState row(int pk, int ck) {
        return partition(pk).rows.computeIfAbsent(ck, k -> new RowState());
    }

    private static Cell merge(Cell current, Cell incoming) {
        return incoming.beats(current) ? incoming : current;
    }

    void insert(int pk, int ck, Integer v, String w, long ts) {
        RowState r = row(pk, ck);
        r.marker = merge(r.marker, new Cell(ts, Boolean.TRUE));
        r.cells.merge("v", new Cell(ts, v), CassandraModel::merge);
        r.cells.merge("w", new Cell(ts, w), CassandraModel::merge);
    }

    void updateV(int pk, int ck, Integer v, long ts) {
        row(pk, ck).cells.merge("v", new Cell(ts, v), CassandraModel::merge);
    }

    void updateStatic(int pk, Integer st, long ts) {
        PartitionState p = partition(pk);
        p.staticCell = merge(p.staticCell, new Cell(ts, st));
    }

    void addTag(int pk, int ck, int tag, long ts) {
        row(pk, ck).tags.merge(tag, new Cell(ts, Boolean.TRUE), CassandraModel::merge);
    }

    void removeTag(int pk, int ck, int tag, long ts) {
        row(pk, ck).tags.merge(tag, new Cell(ts, null), CassandraModel::merge);
    }

    void setTags(int pk, int ck, List<Integer> tags, long ts) {
        RowState r = row(pk, ck);
        r.tagsDeletion = Math.max(r.tagsDeletion, ts - 1);
        for (int t : tags) {
            addTag(pk, ck, t, ts);
        }
    }

    void deleteV(int pk, int ck, long ts) {
        updateV(pk, ck, null, ts);
    }

    void deleteRow(int pk, int ck, long ts) {
        RowState r = row(pk, ck);
        r.rowDeletion = Math.max(r.rowDeletion, ts);
    }

    void deleteRange(int pk, int from, int to, long ts) {
        partition(pk).ranges.add(new RangeTombstone(from, to, ts));
    }

    void deletePartition(int pk, long ts) {
        PartitionState p = partition(pk);
        p.deletion = Math.max(p.deletion, ts);
    }

    /** What CQL shows for a row: ck, v, w, st, tags (tags null when empty), or null if the row is not live. */
    record VisibleRow(Integer ck, Integer v, String w, Integer st, TreeSet<Integer> tags) {
    }

    private long rowShadow(PartitionState p, int ck, RowState r) {
        long s = Math.max(p.deletion, r.rowDeletion);
        for (RangeTombstone rt : p.ranges) {
            if (ck >= rt.from && ck < rt.to) {
                s = Math.max(s, rt.ts);
            }
        }
        return s;
    }

    private static Object live(Cell c, long shadow) {
        return c == null || c.ts <= shadow || c.value == null ? null : c.value;
    }

    List<VisibleRow> read(int pk) {
        PartitionState p = partitions.get(pk);
        List<VisibleRow> out = new ArrayList<>();
        if (p == null) {
            return out;
        }
        Integer st = (Integer) live(p.staticCell, p.deletion);
        for (Map.Entry<Integer, RowState> e : p.rows.entrySet()) {
            int ck = e.getKey();
            RowState r = e.getValue();
            long shadow = rowShadow(p, ck, r);
            boolean markerLive = live(r.marker, shadow) != null;
            Integer v = (Integer) live(r.cells.get("v"), shadow);
            String w = (String) live(r.cells.get("w"), shadow);
            TreeSet<Integer> tags = new TreeSet<>();
            long tagShadow = Math.max(shadow, r.tagsDeletion);
            r.tags.forEach((t, c) -> {
                if (live(c, tagShadow) != null) {
                    tags.add(t);
                }
            });
            if (markerLive || v != null || w != null || !tags.isEmpty()) {
                out.add(new VisibleRow(ck, v, w, st, tags.isEmpty() ? null : tags));
            }
        }
        if (out.isEmpty() && st != null) {
            out.add(new VisibleRow(null, null, null, st, null));
        }
        return out;
    }

    /** Whether the row exists for IF NOT EXISTS / IF EXISTS purposes. */
    boolean rowExists(int pk, int ck) {
        for (VisibleRow r : read(pk)) {
            if (Objects.equals(r.ck(), ck)) {
                return true;
            }
        }
        return false;
    }
}
