package io.charybdis.node.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;

/**
 * Accepts connections on the shard-aware port and registers each with the shard chosen by the client: the shard
 * is the client's source port modulo the shard count (ScyllaDB's protocol extension, advertised as
 * {@code SCYLLA_SHARD_AWARE_PORT}). Sits on the server channel in front of Netty's own acceptor and consumes the
 * accepted channels itself.
 */
@ChannelHandler.Sharable
final class ShardRoutingAcceptor extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(ShardRoutingAcceptor.class);

    private final Shards shards;
    private final ChannelHandler childInitializer;

    ShardRoutingAcceptor(Shards shards, ChannelHandler childInitializer) {
        this.shards = shards;
        this.childInitializer = childInitializer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        child.pipeline().addLast(childInitializer);
        child.config().setOption(ChannelOption.TCP_NODELAY, true);
        int shard = 0;
        if (child.remoteAddress() instanceof InetSocketAddress remote) {
            shard = remote.getPort() % shards.count();
        }
        EventLoop loop = shards.loop(shard);
        try {
            loop.register(child).addListener(f -> {
                if (!f.isSuccess()) {
                    log.warn("Could not register connection from {} with shard {}", child.remoteAddress(), loop,
                            f.cause());
                    child.unsafe().closeForcibly();
                }
            });
        } catch (RuntimeException e) {
            log.warn("Could not register connection from {}", child.remoteAddress(), e);
            child.unsafe().closeForcibly();
        }
    }
}
