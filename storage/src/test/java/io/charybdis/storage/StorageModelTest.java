package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Randomized model test: random mutations (ties on timestamps, TTLs around "now", every kind of tombstone)
 * interleaved with flushes (and so compactions), restarts with commit log replay, and reads of every shape,
 * compared with a plain in-test model of Cassandra's semantics.
 */
class StorageModelTest {
    static final HexFormat HEX = HexFormat.of();
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    static final int SIMPLE_COLUMNS = 3;
    static final int COMPLEX_COLUMN = 3;

    // ------------------------------------------------------------------ model

    static final class MCell {
        boolean tomb;
        long ts;
        int ttl;
        int ldt;
        byte[] value = new byte[0];

        boolean wins(MCell o) {
            if (ts != o.ts) {
                return ts > o.ts;
            }
            boolean d = tomb || ttl > 0;
            boolean od = o.tomb || o.ttl > 0;
            if (d || od) {
                if (d != od) {
                    return d;
                }
                if (tomb != o.tomb) {
                    return tomb;
                }
                if (ldt != o.ldt) {
                    return ldt > o.ldt;
                }
            }
            return Arrays.compareUnsigned(value, o.value) >= 0;
        }

        boolean live(int now) {
            return !tomb && (ttl == 0 || now < ldt);
        }
    }

    static final class MRow {
        long markerTs = Long.MIN_VALUE;
        int markerTtl;
        int markerLet = Integer.MAX_VALUE;
        long delTs = Long.MIN_VALUE;
        final TreeMap<String, MCell> cells = new TreeMap<>(); // key: column(2 digits)/path hex
        final long[] complexDel = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};

        void marker(long ts, int ttl, int let) {
            boolean take;
            if (markerTs == Long.MIN_VALUE || ts != markerTs) {
                take = markerTs == Long.MIN_VALUE || ts > markerTs;
            } else if ((ttl > 0) == (markerTtl > 0)) {
                take = let > markerLet;
            } else {
                take = ttl > 0;
            }
            if (take) {
                markerTs = ts;
                markerTtl = ttl;
                markerLet = let;
            }
        }

        void cell(String k, MCell c) {
            MCell old = cells.get(k);
            if (old == null || c.wins(old)) {
                cells.put(k, c);
            }
        }
    }

    record MRt(byte[] start, byte[] end, long ts) {
        boolean covers(byte[] c) {
            return c.length > 0 && (start == null || Arrays.compareUnsigned(start, c) <= 0)
                    && (end == null || Arrays.compareUnsigned(c, end) < 0);
        }
    }

    static final class MPartition {
        final long token;
        final byte[] key;
        long pdTs = Long.MIN_VALUE;
        final List<MRt> rts = new ArrayList<>();
        final TreeMap<byte[], MRow> rows = new TreeMap<>(Arrays::compareUnsigned);

        MPartition(long token, byte[] key) {
            this.token = token;
            this.key = key;
        }

        MRow row(byte[] c) {
            return rows.computeIfAbsent(c, x -> new MRow());
        }

        /** Live rendering of a row, null if not live. */
        String render(byte[] c, MRow r, int now, int[] columns) {
            long shadow = pdTs;
            for (MRt rt : rts) {
                if (rt.covers(c)) {
                    shadow = Math.max(shadow, rt.ts);
                }
            }
            shadow = Math.max(shadow, r.delTs);
            boolean marker = r.markerTs != Long.MIN_VALUE && r.markerTs > shadow && (r.markerTtl == 0 || now < r.markerLet);
            StringBuilder sb = new StringBuilder();
            boolean anyLive = false;
            for (Map.Entry<String, MCell> e : r.cells.entrySet()) {
                int col = Integer.parseInt(e.getKey().substring(0, 2));
                MCell cell = e.getValue();
                long s = col == COMPLEX_COLUMN ? Math.max(shadow, r.complexDel[col]) : shadow;
                if (cell.ts <= s || !cell.live(now)) {
                    continue;
                }
                anyLive = true;
                if (columns == null || Arrays.binarySearch(columns, col) >= 0) {
                    sb.append(' ').append(e.getKey()).append('=').append(HEX.formatHex(cell.value)).append('@').append(cell.ts)
                            .append('/').append(cell.ttl).append('/').append(cell.ttl > 0 ? cell.ldt : Integer.MAX_VALUE);
                }
            }
            if (!marker && !anyLive) {
                return null;
            }
            return (c.length == 0 ? "  S " : "  R ") + HEX.formatHex(c) + " m=" + (marker ? r.markerTs : Long.MIN_VALUE) + sb;
        }
    }

    final TreeMap<String, MPartition> model = new TreeMap<>(); // key: sortable token+key

    static String sortKey(long token, byte[] key) {
        return String.format("%016x", token ^ Long.MIN_VALUE) + HEX.formatHex(key);
    }

    MPartition mp(long token, byte[] key) {
        return model.computeIfAbsent(sortKey(token, key), k -> new MPartition(token, key));
    }

    // ------------------------------------------------------------------ random generation

    final long[] tokens = new long[6];
    final byte[][] keys = new byte[10][];
    final long[] keyTokens = new long[10];

    byte[] clustering(SplittableRandom r) {
        byte[] c = new byte[1 + r.nextInt(2)];
        for (int i = 0; i < c.length; i++) {
            c[i] = (byte) (r.nextInt(4) * 60 + (i == 0 ? 1 : 0));
        }
        return c;
    }

    byte[] value(SplittableRandom r) {
        byte[] v = new byte[r.nextInt(4)];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) r.nextInt(3);
        }
        return v;
    }

    void randomMutation(SplittableRandom r, MutationBuilder b, TableId table, Storage storage) {
        int k = r.nextInt(keys.length);
        long token = keyTokens[k];
        byte[] key = keys[k];
        MPartition p = mp(token, key);
        b.start(table, token, key);
        int items = 1 + r.nextInt(3);
        for (int i = 0; i < items; i++) {
            long ts = 1 + r.nextInt(30);
            int kind = r.nextInt(100);
            if (kind < 3) {
                b.partitionDeletion(ts, NOW);
                p.pdTs = Math.max(p.pdTs, ts);
            } else if (kind < 8) {
                byte[] s = r.nextBoolean() ? null : clustering(r);
                byte[] e = r.nextBoolean() ? null : clustering(r);
                b.rangeTombstone(s, e, ts, NOW);
                p.rts.add(new MRt(s, e, ts));
            } else {
                byte[] c = r.nextInt(6) == 0 ? new byte[0] : clustering(r);
                MRow row = p.row(c);
                b.beginRow(c);
                int cells = r.nextInt(4);
                if (c.length > 0 && r.nextInt(3) == 0) {
                    int ttl = r.nextInt(3) == 0 ? 10 : 0;
                    int let = ttl > 0 ? NOW - 3 + r.nextInt(7) : Integer.MAX_VALUE;
                    b.rowMarker(ts, ttl, let);
                    row.marker(ts, ttl, let);
                }
                if (c.length > 0 && r.nextInt(12) == 0) {
                    b.rowDeletion(ts, NOW);
                    row.delTs = Math.max(row.delTs, ts);
                }
                for (int j = 0; j < cells; j++) {
                    long cts = 1 + r.nextInt(30);
                    MCell mc = new MCell();
                    mc.ts = cts;
                    int what = r.nextInt(10);
                    if (what < 6) {
                        int col = r.nextInt(SIMPLE_COLUMNS);
                        if (r.nextInt(5) == 0) {
                            mc.tomb = true;
                            mc.ldt = NOW;
                            b.cellTombstone(col, cts, NOW);
                        } else {
                            mc.value = value(r);
                            if (r.nextInt(4) == 0) {
                                mc.ttl = 10;
                                mc.ldt = NOW - 3 + r.nextInt(7);
                            } else {
                                mc.ldt = Integer.MAX_VALUE;
                            }
                            b.cell(col, cts, mc.ttl, mc.ldt, ByteBuffer.wrap(mc.value));
                        }
                        row.cell(String.format("%02d/", col), mc);
                    } else if (what < 9) {
                        byte[] path = {(byte) r.nextInt(3)};
                        if (r.nextInt(4) == 0) {
                            mc.tomb = true;
                            mc.ldt = NOW;
                            b.complexCellTombstone(COMPLEX_COLUMN, path, cts, NOW);
                        } else {
                            mc.value = value(r);
                            mc.ldt = Integer.MAX_VALUE;
                            b.complexCell(COMPLEX_COLUMN, path, cts, 0, 0, ByteBuffer.wrap(mc.value));
                        }
                        row.cell(String.format("%02d/", COMPLEX_COLUMN) + HEX.formatHex(path), mc);
                    } else {
                        b.complexDeletion(COMPLEX_COLUMN, cts, NOW);
                        row.complexDel[COMPLEX_COLUMN] = Math.max(row.complexDel[COMPLEX_COLUMN], cts);
                    }
                }
                b.endRow();
            }
        }
        storage.apply(b.build()).orTimeout(10, TimeUnit.SECONDS).join();
    }

    // ------------------------------------------------------------------ expected reads

    List<String> expected(ReadCommand c) {
        List<String> out = new ArrayList<>();
        int rows = 0;
        int parts = 0;
        boolean full = false;
        for (MPartition p : model.values()) {
            if (full) {
                break;
            }
            if (c.isSinglePartition()) {
                if (p.token != c.token() || !Arrays.equals(p.key, c.key())) {
                    continue;
                }
            } else {
                org.agrona.concurrent.UnsafeBuffer kb = new org.agrona.concurrent.UnsafeBuffer(p.key);
                if (!c.afterStart(p.token, kb, 0, p.key.length) || !c.beforeEnd(p.token, kb, 0, p.key.length)) {
                    continue;
                }
            }
            byte[] resume = c.startAfter() != null && c.startAfter().token() == p.token
                    && Arrays.equals(c.startAfter().key(), p.key) ? c.startAfter().clustering() : null;
            MRow st = p.rows.get(new byte[0]);
            String staticLine = st == null ? null : p.render(new byte[0], st, c.nowInSeconds(), c.columns());
            List<byte[]> order = new ArrayList<>(p.rows.keySet());
            order.removeIf(x -> x.length == 0);
            if (c.reversed()) {
                java.util.Collections.reverse(order);
            }
            List<String> emitted = new ArrayList<>();
            for (byte[] cl : order) {
                if (!inSlices(c, cl)) {
                    continue;
                }
                if (resume != null && (c.reversed() ? Arrays.compareUnsigned(cl, resume) >= 0 : Arrays.compareUnsigned(cl, resume) <= 0)) {
                    continue;
                }
                String line = p.render(cl, p.rows.get(cl), c.nowInSeconds(), c.columns());
                if (line == null) {
                    continue;
                }
                emitted.add(line);
                rows++;
                if (rows >= c.rowLimit()) {
                    full = true;
                    break;
                }
                if (emitted.size() >= c.perPartitionLimit()) {
                    break;
                }
            }
            boolean wrote = false;
            if (!emitted.isEmpty()) {
                out.add("P " + p.token + " " + HEX.formatHex(p.key));
                if (staticLine != null) {
                    out.add(staticLine);
                }
                out.addAll(emitted);
                wrote = true;
            } else if (staticLine != null && resume == null) {
                out.add("P " + p.token + " " + HEX.formatHex(p.key));
                out.add(staticLine);
                wrote = true;
                rows++;
                if (rows >= c.rowLimit()) {
                    full = true;
                }
            }
            if (wrote) {
                parts++;
                if (parts >= c.partitionLimit()) {
                    full = true;
                }
            }
        }
        return out;
    }

    static boolean inSlices(ReadCommand c, byte[] cl) {
        if (c.slices().isEmpty()) {
            return true;
        }
        for (ReadCommand.Slice s : c.slices()) {
            if ((s.start() == null || Arrays.compareUnsigned(s.start(), cl) <= 0)
                    && (s.end() == null || Arrays.compareUnsigned(cl, s.end()) < 0)) {
                return true;
            }
        }
        return false;
    }

    static List<String> render(ReadResult r) {
        List<String> out = new ArrayList<>();
        ReadResult.Cursor c = r.cursor();
        while (c.nextPartition()) {
            out.add("P " + c.token() + " " + HEX.formatHex(c.keyBytes()));
            while (c.nextRow()) {
                StringBuilder sb = new StringBuilder(c.isStatic() ? "  S " : "  R ");
                sb.append(HEX.formatHex(c.clusteringBytes())).append(" m=").append(c.rowTimestamp());
                while (c.nextCell()) {
                    sb.append(' ').append(String.format("%02d/", c.columnId()))
                            .append(c.hasPath() ? HEX.formatHex(c.pathBytes()) : "")
                            .append('=').append(HEX.formatHex(c.valueBytes())).append('@').append(c.timestamp())
                            .append('/').append(c.ttl()).append('/').append(c.localExpirationTime());
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    ReadCommand randomRead(SplittableRandom r, TableId table) {
        ReadCommand.Builder b;
        if (r.nextInt(3) > 0) {
            int k = r.nextInt(keys.length);
            b = ReadCommand.partition(table, keyTokens[k], keys[k]);
        } else {
            ReadCommand.KeyBound s = r.nextBoolean() ? null : ReadCommand.KeyBound.token(tokens[r.nextInt(tokens.length)], r.nextBoolean());
            ReadCommand.KeyBound e = r.nextBoolean() ? null : ReadCommand.KeyBound.token(tokens[r.nextInt(tokens.length)], r.nextBoolean());
            b = ReadCommand.range(table, s, e);
            if (r.nextInt(4) == 0) {
                b.partitionLimit(1 + r.nextInt(3));
            }
        }
        if (r.nextInt(3) == 0) {
            byte[] a = clustering(r);
            byte[] z = clustering(r);
            if (Arrays.compareUnsigned(a, z) > 0) {
                byte[] t = a;
                a = z;
                z = t;
            }
            b.slice(r.nextBoolean() ? null : a, r.nextBoolean() ? null : z);
        }
        b.reversed(r.nextBoolean());
        if (r.nextInt(3) == 0) {
            b.rowLimit(1 + r.nextInt(5));
        }
        if (r.nextInt(4) == 0) {
            b.perPartitionLimit(1 + r.nextInt(3));
        }
        if (r.nextInt(5) == 0) {
            b.columns(0, COMPLEX_COLUMN);
        }
        b.nowInSeconds(NOW - 4 + r.nextInt(9));
        return b.build();
    }

    // ------------------------------------------------------------------ the test

    @ParameterizedTest
    @CsvSource({"1, 1, PERIODIC, LZ4Compressor, true", "2, 2, BATCH, ZstdCompressor, true", "3, 3, GROUP, none, true",
            "4, 2, PERIODIC, LZ4Compressor, false"})
    @Timeout(90)
    void shouldMatchModel(long seed, int shards, CommitLogSync sync, String compressor, boolean cache, @TempDir Path dir) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = r.nextLong();
        }
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new byte[] {(byte) r.nextInt(256), (byte) i};
            keyTokens[i] = tokens[r.nextInt(tokens.length)];
        }
        TableDescriptor table = new TableDescriptor(TableId.random(), "ks", "t",
                Map.of("class", compressor, "chunk_length_in_kb", "1"), Map.of("min_threshold", "2"), 864000,
                Map.of("enabled", String.valueOf(cache)));
        try (TestSupport ts = new TestSupport(dir, shards, TestSupport.config(dir, sync))) {
            Storage storage = ts.open(table);
            MutationBuilder b = new MutationBuilder();
            int nonEmpty = 0;
            int flushes = 0;
            int restarts = 0;
            long maxSSTables = 0;
            for (int op = 0; op < 1200; op++) {
                int what = r.nextInt(100);
                if (what < 55) {
                    randomMutation(r, b, table.id(), storage);
                } else if (what < 90) {
                    ReadCommand c = randomRead(r, table.id());
                    ReadResult res = storage.read(c).orTimeout(10, TimeUnit.SECONDS).join();
                    assertThat(render(res)).as("op=%d read=%s", op, c).containsExactlyElementsOf(expected(c));
                    nonEmpty += res.isEmpty() ? 0 : 1;
                } else if (what < 95) {
                    pagedRangeRead(r, table.id(), storage);
                } else if (what < 98) {
                    storage.flush(table.id()).orTimeout(10, TimeUnit.SECONDS).join();
                    flushes++;
                    maxSSTables = Math.max(maxSSTables, storage.stats(table.id()).sstableCount());
                } else {
                    restarts++;
                    ts.closeStorage();
                    storage = ts.open(table);
                }
            }
            assertThat(nonEmpty).isGreaterThan(100);
            assertThat(flushes).isGreaterThan(5);
            assertThat(restarts).isGreaterThan(5);
            // compaction runs in the background under the scheduler: the count stays bounded, not exactly small
            assertThat(maxSSTables).isGreaterThan(0).isLessThan(40L * shards);
            ts.closeStorage();
        }
    }

    void pagedRangeRead(SplittableRandom r, TableId table, Storage storage) {
        int now = NOW - 4 + r.nextInt(9);
        boolean reversed = r.nextBoolean();
        ReadCommand full = ReadCommand.range(table, null, null).reversed(reversed).nowInSeconds(now).build();
        List<String> expectedRows = regularRows(render(storage.read(full).join()));
        assertThat(render(storage.read(full).join())).containsExactlyElementsOf(expected(full));
        List<String> paged = new ArrayList<>();
        ReadCommand.ResumePoint resume = null;
        int pageSize = 1 + r.nextInt(4);
        for (int page = 0; page < 200; page++) {
            ReadCommand c = ReadCommand.range(table, null, null).reversed(reversed).nowInSeconds(now)
                    .rowLimit(pageSize).startAfter(resume).build();
            ReadResult res = storage.read(c).join();
            assertThat(render(res)).containsExactlyElementsOf(expected(c));
            paged.addAll(regularRows(render(res)));
            if (!res.limitReached()) {
                break;
            }
            resume = res.resumePoint();
        }
        assertThat(paged).containsExactlyElementsOf(expectedRows);
    }

    static List<String> regularRows(List<String> lines) {
        List<String> out = new ArrayList<>();
        String partition = null;
        for (String l : lines) {
            if (l.startsWith("P ")) {
                partition = l;
            } else if (l.startsWith("  R ")) {
                out.add(partition + l);
            }
        }
        return out;
    }
}
