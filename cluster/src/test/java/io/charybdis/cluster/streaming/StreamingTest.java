package io.charybdis.cluster.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.storage.Storage;
import io.charybdis.storage.StorageConfig;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming between two nodes of different shard counts: the receiver pulls a wrapping token range page by page,
 * and ends up with exactly the source's partitions of that range — live cells, tombstones and timestamps — merged
 * with what it held, and nothing outside the range.
 */
@Timeout(60)
class StreamingTest {
    static final TableId TABLE = TableId.of(new UUID(7, 7));

    @TempDir
    Path dir;

    final List<AutoCloseable> closeables = new ArrayList<>();
    final AtomicInteger pages = new AtomicInteger();

    final class TestNode {
        final Storage storage;
        final MessagingService messaging;
        final Streaming streaming;
        final Endpoint endpoint;

        TestNode(int i, int shards) {
            MultiThreadIoEventLoopGroup loops = new MultiThreadIoEventLoopGroup(shards, NioIoHandler.newFactory());
            MultiThreadIoEventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
            List<EventLoop> shardLoops = new ArrayList<>();
            for (EventExecutor e : loops) {
                shardLoops.add((EventLoop) e);
            }
            StorageConfig c = StorageConfig.defaults(dir.resolve("n" + i));
            storage = Storage.open(new StorageConfig(c.dataDirectory(), c.commitLogDirectory(), c.commitLogSync(),
                    c.commitLogSyncPeriodMillis(), c.commitLogGroupWindowMillis(), c.commitLogSegmentSizeBytes(),
                    64L << 20, false), shardLoops);
            storage.registerTable(new TableDescriptor(TABLE, "ks", "t", Map.of(), Map.of("enabled", "false"), 864000));
            messaging = new MessagingService(shardLoops, acceptor, NioServerSocketChannel.class, NioSocketChannel.class,
                    () -> 1, (from, to, verb, response) -> {
                        if (verb == Verb.STREAM_PAGE && response) {
                            pages.incrementAndGet();
                        }
                        return 0;
                    });
            streaming = Streaming.serve(messaging, storage);
            InetSocketAddress address = messaging.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            endpoint = new Endpoint(new UUID(0, i), address.getAddress(), address.getPort(), "dc1", "r1", shards);
            closeables.add(() -> {
                messaging.close();
                storage.close();
                loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
                acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            });
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    static Mutation row(MutationBuilder b, long token, String key, long ts, String value) {
        b.start(TABLE, token, key.getBytes(StandardCharsets.UTF_8)).beginRow(new byte[] {1}).rowMarker(ts, 0, 0)
                .cell(0, ts, 0, 0, ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8))).endRow();
        return b.build();
    }

    static TreeMap<DecoratedKey, String> contents(Storage s) throws Exception {
        TreeMap<DecoratedKey, String> out = new TreeMap<>();
        for (int shard = 0; shard < s.shardCount(); shard++) {
            DecoratedKey after = null;
            while (true) {
                List<Mutation> page = s.readRawRange(TABLE, shard, Long.MIN_VALUE, after, Long.MAX_VALUE, 50)
                        .get(10, TimeUnit.SECONDS);
                for (Mutation m : page) {
                    ByteBuffer b = m.asByteBuffer();
                    byte[] bytes = new byte[b.remaining()];
                    b.get(bytes);
                    out.put(new DecoratedKey(m.token(), m.partitionKey()), HexFormat.of().formatHex(bytes));
                }
                if (page.size() < 50) {
                    break;
                }
                Mutation last = page.get(page.size() - 1);
                after = new DecoratedKey(last.token(), last.partitionKey());
            }
        }
        return out;
    }

    @Test
    void aWrappingRangeStreamsWholeWithTombstonesAndMergesWithWhatTheReceiverHeld() throws Exception {
        TestNode source = new TestNode(1, 2);
        TestNode receiver = new TestNode(2, 3);
        MutationBuilder b = new MutationBuilder();
        Random random = new Random(42);
        TokenRange range = new TokenRange(Long.MAX_VALUE / 2, Long.MIN_VALUE / 2); // wraps past the end
        long newer = 0;
        for (int i = 0; i < 600; i++) {
            long token = random.nextLong();
            source.storage.apply(row(b, token, "k" + i, 10 + i, "v" + i)).get(5, TimeUnit.SECONDS);
            if (i % 10 == 0) {
                b.start(TABLE, token, ("k" + i).getBytes(StandardCharsets.UTF_8)).partitionDeletion(20 + i, 1000);
                source.storage.apply(b.build()).get(5, TimeUnit.SECONDS);
            }
            if (i == 300) {
                source.storage.flushAll().get(10, TimeUnit.SECONDS); // half in SSTables, half in memtables
            }
            if (i % 50 == 1 && range.contains(token)) { // the receiver already holds a newer value of these
                receiver.storage.apply(row(b, token, "k" + i, 1_000_000, "newer")).get(5, TimeUnit.SECONDS);
                newer++;
            }
        }
        long applied = receiver.streaming.fetch(TABLE, List.of(range), List.of(source.endpoint))
                .get(30, TimeUnit.SECONDS);

        TreeMap<DecoratedKey, String> expected = new TreeMap<>();
        contents(source.storage).forEach((k, v) -> {
            if (range.contains(k.token())) {
                expected.put(k, v);
            }
        });
        assertThat(expected.size()).isGreaterThan(200);
        assertThat(applied).isEqualTo(expected.size());
        assertThat(pages.get()).isGreaterThan(expected.size() / Streaming.PAGE_PARTITIONS);
        TreeMap<DecoratedKey, String> got = contents(receiver.storage);
        assertThat(got.keySet()).isEqualTo(expected.keySet());
        long differing = got.keySet().stream().filter(k -> !got.get(k).equals(expected.get(k))).count();
        assertThat(differing).as("partitions where the receiver's newer write won").isEqualTo(newer);
        assertThat(receiver.streaming.partitionsReceived()).isEqualTo(applied);
        assertThat(source.streaming.partitionsSent()).isEqualTo(applied);
        assertThat(receiver.streaming.active()).isEmpty();

        // streaming the range again changes nothing
        receiver.streaming.fetch(TABLE, List.of(range), List.of(source.endpoint)).get(30, TimeUnit.SECONDS);
        assertThat(contents(receiver.storage)).isEqualTo(got);
    }
}
