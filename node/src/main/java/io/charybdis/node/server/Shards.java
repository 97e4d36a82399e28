package io.charybdis.node.server;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The node's shard threads: one Netty event loop per shard (epoll where available). Each loop both serves the
 * client connections assigned to it and owns its storage shard; {@link #loops()} is handed to the storage engine as
 * its shard executors, in shard order.
 */
public final class Shards implements AutoCloseable {
    private final EventLoopGroup group;
    private final EventLoopGroup acceptor;
    private final List<EventLoop> loops;
    private final boolean epoll;

    public Shards(int count, String name) {
        this.epoll = Epoll.isAvailable() && !Boolean.getBoolean("charybdis.nio");
        IoHandlerFactory factory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.group = new MultiThreadIoEventLoopGroup(count, new DefaultThreadFactory(name + "-shard", true), factory);
        this.acceptor = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(name + "-accept", true), factory);
        List<EventLoop> list = new ArrayList<>(count);
        for (EventExecutor e : group) {
            list.add((EventLoop) e);
        }
        this.loops = List.copyOf(list);
    }

    public int count() {
        return loops.size();
    }

    public List<EventLoop> loops() {
        return loops;
    }

    public EventLoop loop(int shard) {
        return loops.get(shard);
    }

    /** The shard a loop belongs to, or -1 when it is not one of ours. */
    public int shardOf(EventLoop loop) {
        return loops.indexOf(loop);
    }

    public EventLoopGroup group() {
        return group;
    }

    public EventLoopGroup acceptor() {
        return acceptor;
    }

    public Class<? extends io.netty.channel.Channel> clientChannelClass() {
        return epoll ? io.netty.channel.epoll.EpollSocketChannel.class : io.netty.channel.socket.nio.NioSocketChannel.class;
    }

    public Class<? extends ServerChannel> serverChannelClass() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    @Override
    public void close() {
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
