package io.charybdis.storage.read;

import io.charybdis.storage.TableId;
import io.charybdis.storage.util.ByteComparables;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.agrona.DirectBuffer;

/**
 * A read of one partition or of a range of partitions, with clustering slices, order, limits and a paging
 * resume point. Build with {@link #partition} or {@link #range}.
 *
 * @param key         the partition key of a single-partition read; null for a range read
 * @param start       range start bound, null = unbounded (range reads only)
 * @param end         range end bound, null = unbounded (range reads only)
 * @param slices      sorted, non-overlapping clustering slices; empty = all rows. The static row is always
 *                    returned when live, whatever the slices
 * @param columns     sorted column ids to return, null = all. Row liveness still considers every column
 * @param startAfter  resume strictly after this position in read order; null = from the start
 * @param tombstoneFailureThreshold the read fails with {@link TombstoneOverwhelmingException} once it has scanned
 *                    more tombstones than this (Cassandra's tombstone_failure_threshold); {@link #NO_LIMIT} = never
 */
public record ReadCommand(TableId table, long token, byte[] key, KeyBound start, KeyBound end,
                          List<Slice> slices, boolean reversed, int rowLimit, int perPartitionLimit,
                          int partitionLimit, int nowInSeconds, ResumePoint startAfter, int[] columns,
                          int tombstoneFailureThreshold) {

    public static final int NO_LIMIT = Integer.MAX_VALUE;

    /** A partition-range bound: token, optionally a key (null = any key of that token), and inclusiveness. */
    public record KeyBound(long token, byte[] key, boolean inclusive) {
        public static KeyBound token(long token, boolean inclusive) {
            return new KeyBound(token, null, inclusive);
        }
    }

    /** Clustering slice [start, end); null = unbounded. */
    public record Slice(byte[] start, byte[] end) {
        public static final Slice ALL = new Slice(null, null);
    }

    /** Paging position: strictly after (token, key, clustering); clustering null = after the whole partition. */
    public record ResumePoint(long token, byte[] key, byte[] clustering) {
        public ResumePoint {
            Objects.requireNonNull(key, "key");
        }
    }

    public ReadCommand {
        Objects.requireNonNull(table, "table");
        slices = slices == null ? List.of() : List.copyOf(slices);
        if (rowLimit <= 0 || perPartitionLimit <= 0 || partitionLimit <= 0) {
            throw new IllegalArgumentException("limits must be > 0: rowLimit=" + rowLimit
                    + " perPartitionLimit=" + perPartitionLimit + " partitionLimit=" + partitionLimit);
        }
        if (columns != null) {
            columns = columns.clone();
            Arrays.sort(columns);
        }
    }

    public boolean isSinglePartition() {
        return key != null;
    }

    public static Builder partition(TableId table, long token, byte[] key) {
        Builder b = new Builder(table);
        b.token = token;
        b.key = Objects.requireNonNull(key, "key");
        return b;
    }

    public static Builder range(TableId table, KeyBound start, KeyBound end) {
        Builder b = new Builder(table);
        b.start = start;
        b.end = end;
        return b;
    }

    public Builder toBuilder() {
        Builder b = new Builder(table);
        b.token = token;
        b.key = key;
        b.start = start;
        b.end = end;
        b.slices.addAll(slices);
        b.reversed = reversed;
        b.rowLimit = rowLimit;
        b.perPartitionLimit = perPartitionLimit;
        b.partitionLimit = partitionLimit;
        b.nowInSeconds = nowInSeconds;
        b.startAfter = startAfter;
        b.columns = columns;
        b.tombstoneFailureThreshold = tombstoneFailureThreshold;
        return b;
    }

    public boolean selectsColumn(int column) {
        return columns == null || Arrays.binarySearch(columns, column) >= 0;
    }

    /** Whether partition (token, key) lies after the range start (and the resume point), for range reads. */
    public boolean afterStart(long t, DirectBuffer kb, int ko, int kl) {
        if (startAfter != null) {
            int c = comparePosition(t, kb, ko, kl, startAfter.token, startAfter.key);
            if (c < 0 || (c == 0 && startAfter.clustering == null)) {
                return false;
            }
        }
        if (start == null) {
            return true;
        }
        int c = compareToBound(t, kb, ko, kl, start);
        return c > 0 || (c == 0 && start.inclusive);
    }

    /** Whether partition (token, key) lies before the range end, for range reads. */
    public boolean beforeEnd(long t, DirectBuffer kb, int ko, int kl) {
        if (end == null) {
            return true;
        }
        int c = compareToBound(t, kb, ko, kl, end);
        return c < 0 || (c == 0 && end.inclusive);
    }

    /** Whether this partition is the one paging resumes inside (so rows after the resume clustering only). */
    public boolean resumesIn(long t, DirectBuffer kb, int ko, int kl) {
        return startAfter != null && startAfter.clustering != null
                && comparePosition(t, kb, ko, kl, startAfter.token, startAfter.key) == 0;
    }

    private static int compareToBound(long t, DirectBuffer kb, int ko, int kl, KeyBound b) {
        int c = Long.compare(t, b.token);
        if (c != 0 || b.key == null) {
            return c;
        }
        return ByteComparables.compare(kb, ko, kl, b.key);
    }

    private static int comparePosition(long t, DirectBuffer kb, int ko, int kl, long t2, byte[] k2) {
        int c = Long.compare(t, t2);
        return c != 0 ? c : ByteComparables.compare(kb, ko, kl, k2);
    }

    /** The lowest position a range read can start at: (token, key or empty key). */
    public long lowestToken() {
        long t = start == null ? Long.MIN_VALUE : start.token;
        if (startAfter != null && startAfter.token > t) {
            t = startAfter.token;
        }
        return t;
    }

    public static final class Builder {
        private final TableId table;
        private long token;
        private byte[] key;
        private KeyBound start;
        private KeyBound end;
        private final List<Slice> slices = new ArrayList<>();
        private boolean reversed;
        private int rowLimit = NO_LIMIT;
        private int perPartitionLimit = NO_LIMIT;
        private int partitionLimit = NO_LIMIT;
        private int nowInSeconds = (int) (System.currentTimeMillis() / 1000);
        private ResumePoint startAfter;
        private int[] columns;
        private int tombstoneFailureThreshold = NO_LIMIT;

        private Builder(TableId table) {
            this.table = table;
        }

        public Builder slice(byte[] start, byte[] end) {
            slices.add(new Slice(start, end));
            return this;
        }

        public Builder slices(List<Slice> s) {
            slices.clear();
            slices.addAll(s);
            return this;
        }

        public Builder reversed(boolean r) {
            reversed = r;
            return this;
        }

        public Builder rowLimit(int n) {
            rowLimit = n;
            return this;
        }

        public Builder perPartitionLimit(int n) {
            perPartitionLimit = n;
            return this;
        }

        public Builder partitionLimit(int n) {
            partitionLimit = n;
            return this;
        }

        public Builder nowInSeconds(int now) {
            nowInSeconds = now;
            return this;
        }

        public Builder startAfter(long token, byte[] key, byte[] clustering) {
            startAfter = new ResumePoint(token, key, clustering);
            return this;
        }

        public Builder startAfter(ResumePoint p) {
            startAfter = p;
            return this;
        }

        public Builder columns(int... ids) {
            columns = ids;
            return this;
        }

        /** Fail the read once it has scanned more than {@code n} tombstones (cells, row deletions, range bounds). */
        public Builder tombstoneFailureThreshold(int n) {
            tombstoneFailureThreshold = n;
            return this;
        }

        public ReadCommand build() {
            return new ReadCommand(table, token, key, start, end, slices, reversed, rowLimit, perPartitionLimit,
                    partitionLimit, nowInSeconds, startAfter, columns, tombstoneFailureThreshold);
        }
    }
}
