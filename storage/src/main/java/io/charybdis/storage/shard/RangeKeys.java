package io.charybdis.storage.shard;

import io.charybdis.storage.TableId;
import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Lists, in (token, key) order, the partition keys this shard holds in a token range after a resume position: the
 * first step of streaming and of repair's Merkle trees, which then read each partition raw
 * ({@link ShardReads#readRaw}). One page at a time, so memory is bounded by the page size however big the range.
 *
 * <p>Implementation notes: the memtables are walked on the shard thread, the SSTables on the I/O pool (key columns
 * of their index only: no partition data is read); both stop after {@code limit} keys past the resume position, so
 * the first {@code limit} of their union is exact. A partition deleted everywhere is still listed while a tombstone
 * of it is held: streaming carries tombstones. Only tokens this shard owns are listed (an SSTable written under
 * another shard count holds other shards' data too).
 */
final class RangeKeys {
    private final Shard shard;

    RangeKeys(Shard shard) {
        this.shard = shard;
    }

    /**
     * Keys with {@code startToken <= token <= endToken}, after {@code after} when it is not null (resuming a range),
     * at most {@code limit}.
     */
    CompletableFuture<List<DecoratedKey>> keys(TableId table, long startToken, DecoratedKey after, long endToken,
                                               int limit) {
        CompletableFuture<List<DecoratedKey>> f = new CompletableFuture<>();
        TableShard ts = shard.tables.find(table);
        if (ts == null) {
            f.complete(List.of());
            return f;
        }
        DecoratedKey from = after == null ? new DecoratedKey(startToken, new byte[0]) : after;
        long fromToken = from.token();
        ReadSources src = ReadSources.capture(ts, r -> r.overlaps(fromToken, endToken));
        TreeSet<DecoratedKey> found = new TreeSet<>();
        try {
            for (Memtable m : src.memtables()) {
                int n = 0;
                for (PartitionView v : m.from(from)) {
                    if (v.token() > endToken) {
                        break;
                    }
                    DecoratedKey k = DecoratedKey.of(v.token(), v.keyBuffer(), v.keyOffset(), v.keyLength());
                    if (accepts(startToken, after, k) && found.add(k) && ++n >= limit) {
                        break;
                    }
                }
            }
        } catch (Throwable t) {
            src.release();
            f.completeExceptionally(t);
            return f;
        }
        if (src.sstables().isEmpty()) {
            src.release();
            f.complete(first(found, limit));
            return f;
        }
        shard.io(() -> {
            List<DecoratedKey> fromDisk = new ArrayList<>();
            Throwable error = null;
            try {
                for (SSTableReader r : src.sstables()) {
                    SSTableReader.Scanner s = r.scanner(from.token(), from.key());
                    int n = 0;
                    while (s.advance() && s.token() <= endToken) {
                        DecoratedKey k = new DecoratedKey(s.token(), s.key());
                        if (accepts(startToken, after, k)) {
                            fromDisk.add(k);
                            if (++n >= limit) {
                                break;
                            }
                        }
                    }
                }
            } catch (Throwable t) {
                error = t;
            }
            Throwable err = error;
            shard.post(() -> {
                src.release();
                if (err != null) {
                    f.completeExceptionally(err);
                } else {
                    found.addAll(fromDisk);
                    f.complete(first(found, limit));
                }
            });
        }, f);
        return f;
    }

    private boolean accepts(long startToken, DecoratedKey after, DecoratedKey k) {
        return (after == null ? k.token() >= startToken : k.compareTo(after) > 0)
                && ShardRouting.shardOf(k.token(), shard.ctx.shardCount()) == shard.id;
    }

    private static List<DecoratedKey> first(TreeSet<DecoratedKey> keys, int limit) {
        List<DecoratedKey> out = new ArrayList<>(Math.min(limit, keys.size()));
        for (DecoratedKey k : keys) {
            if (out.size() == limit) {
                break;
            }
            out.add(k);
        }
        return out;
    }
}
