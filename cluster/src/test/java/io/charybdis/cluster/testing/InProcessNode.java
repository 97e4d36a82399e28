package io.charybdis.cluster.testing;

import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.replica.Replicas;
import io.charybdis.storage.Storage;
import io.charybdis.storage.StorageConfig;
import io.charybdis.storage.TableDescriptor;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One node of an in-process cluster for the cluster module's tests: its own shard loops, storage (64 MiB budget),
 * internode messaging on a free loopback port with the given fault injector, replica, streaming and repair handlers;
 * the test makes
 * its {@link #coordinator} once every node's endpoint is known. Requests carry metadata epoch 1.
 */
public class InProcessNode implements AutoCloseable {
    public final MultiThreadIoEventLoopGroup loops;
    public final MultiThreadIoEventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    public final Storage storage;
    public final MessagingService messaging;
    public final Replicas replicas;
    public final io.charybdis.cluster.streaming.Streaming streaming;
    public final io.charybdis.cluster.repair.Repair repair;
    public final InetSocketAddress address;
    public final Endpoint endpoint;
    public Coordinator coordinator;

    public InProcessNode(Path dir, int i, int shards, String rack, FaultInjector faults, TableDescriptor... tables) {
        loops = new MultiThreadIoEventLoopGroup(shards, NioIoHandler.newFactory());
        List<EventLoop> shardLoops = new ArrayList<>();
        for (EventExecutor e : loops) {
            shardLoops.add((EventLoop) e);
        }
        StorageConfig c = StorageConfig.defaults(dir);
        storage = Storage.open(new StorageConfig(c.dataDirectory(), c.commitLogDirectory(), c.commitLogSync(),
                c.commitLogSyncPeriodMillis(), c.commitLogGroupWindowMillis(), c.commitLogSegmentSizeBytes(),
                64L << 20, false), shardLoops);
        for (TableDescriptor t : tables) {
            storage.registerTable(t);
        }
        messaging = new MessagingService(shardLoops, acceptor, NioServerSocketChannel.class, NioSocketChannel.class,
                () -> 1, faults);
        replicas = Replicas.serve(messaging, storage);
        streaming = io.charybdis.cluster.streaming.Streaming.serve(messaging, storage);
        repair = io.charybdis.cluster.repair.Repair.serve(messaging, storage, streaming);
        address = messaging.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        endpoint = new Endpoint(new UUID(0, i), address.getAddress(), address.getPort(), "dc1", rack, shards);
    }

    @Override
    public void close() {
        messaging.close();
        storage.close();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
