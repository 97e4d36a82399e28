package io.charybdis.storage.compaction;

/** A synthetic SSTable for strategy and tracker tests: keys are single bytes, token = key. */
final class FakeSSTable implements CompactionSSTable {
    static long nextGeneration = 1;
    final long generation = nextGeneration++;
    final long size;
    int level;
    final int first;
    final int last;
    long minTs = 1;
    long maxTs = 10;
    long rows = 100;
    long tombstones;
    long createdAt = 0;

    FakeSSTable(long size, int level, int first, int last) {
        this.size = size;
        this.level = level;
        this.first = first;
        this.last = last;
    }

    static FakeSSTable of(long size) {
        return new FakeSSTable(size, 0, 0, 255);
    }

    @Override
    public long generation() {
        return generation;
    }

    @Override
    public long onDiskBytes() {
        return size;
    }

    @Override
    public int level() {
        return level;
    }

    @Override
    public void level(int l) {
        level = l;
    }

    @Override
    public long minToken() {
        return first;
    }

    @Override
    public byte[] minKey() {
        return new byte[] {(byte) first};
    }

    @Override
    public long maxToken() {
        return last;
    }

    @Override
    public byte[] maxKey() {
        return new byte[] {(byte) last};
    }

    @Override
    public long minTimestamp() {
        return minTs;
    }

    @Override
    public long maxTimestamp() {
        return maxTs;
    }

    @Override
    public long rowCount() {
        return rows;
    }

    @Override
    public long tombstoneCount() {
        return tombstones;
    }

    @Override
    public long createdAtMillis() {
        return createdAt;
    }

    @Override
    public String toString() {
        return "sst" + generation + "(L" + level + " " + size + " [" + first + "," + last + "])";
    }
}
