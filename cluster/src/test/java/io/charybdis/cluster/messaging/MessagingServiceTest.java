package io.charybdis.cluster.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class MessagingServiceTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private final AtomicReference<FaultInjector> faults = new AtomicReference<>(FaultInjector.NONE);

    /** One node's messaging: its own shard loops and acceptor, and an ECHO handler that says which shard ran it. */
    private final class Node implements AutoCloseable {
        final MultiThreadIoEventLoopGroup shards;
        final MultiThreadIoEventLoopGroup acceptor;
        final List<EventLoop> loops = new ArrayList<>();
        final MessagingService messaging;
        final InetSocketAddress address;

        Node(int shardCount) {
            shards = new MultiThreadIoEventLoopGroup(shardCount, NioIoHandler.newFactory());
            acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
            for (EventExecutor e : shards) {
                loops.add((EventLoop) e);
            }
            messaging = new MessagingService(loops, acceptor, NioServerSocketChannel.class, NioSocketChannel.class,
                    () -> 7, (from, to, verb, response) -> faults.get().onSend(from, to, verb, response));
            messaging.handle(Verb.ECHO, (payload, shard, epoch, sender) -> {
                if (!loops.get(shard).inEventLoop()) {
                    return CompletableFuture.failedFuture(new IllegalStateException("not on shard " + shard));
                }
                ByteBuf out = Unpooled.buffer();
                out.writeInt(shard).writeLong(epoch).writeBytes(payload);
                return CompletableFuture.completedFuture(out);
            });
            address = messaging.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            open.add(this);
        }

        @Override
        public void close() {
            messaging.close();
            shards.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    private static String echo(ByteBuf answer, int[] shard) {
        try {
            shard[0] = answer.readInt();
            answer.readLong();
            return answer.toString(StandardCharsets.UTF_8);
        } finally {
            answer.release();
        }
    }

    @Test
    void requestsLandOnTheShardTheyAreAddressedTo() throws Exception {
        Node a = new Node(2);
        Node b = new Node(3);
        for (int shard = 0; shard < 3; shard++) {
            ByteBuf answer = a.messaging.send(b.address, shard, Verb.ECHO, text("hello " + shard), 5000).get();
            int[] ranOn = new int[1];
            assertThat(echo(answer, ranOn)).isEqualTo("hello " + shard);
            assertThat(ranOn[0]).isEqualTo(shard);
        }
        // both ways, many in flight on one connection
        List<CompletableFuture<ByteBuf>> fs = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            fs.add(b.messaging.send(a.address, i % 2, Verb.ECHO, text("m" + i), 5000));
        }
        for (int i = 0; i < fs.size(); i++) {
            int[] ranOn = new int[1];
            assertThat(echo(fs.get(i).get(), ranOn)).isEqualTo("m" + i);
            assertThat(ranOn[0]).isEqualTo(i % 2);
        }
    }

    @Test
    void theSendersEpochTravelsWithTheRequest() throws Exception {
        Node a = new Node(1);
        Node b = new Node(1);
        ByteBuf answer = a.messaging.send(b.address, 0, Verb.ECHO, text("x"), 5000).get();
        answer.readInt();
        assertThat(answer.readLong()).isEqualTo(7);
        answer.release();
    }

    @Test
    void droppedRequestsTimeOutAndTrafficResumesWhenTheFaultIsLifted() throws Exception {
        Node a = new Node(1);
        Node b = new Node(1);
        faults.set((from, to, verb, response) -> to.equals(b.address) ? FaultInjector.DROP : 0);
        CompletableFuture<ByteBuf> f = a.messaging.send(b.address, 0, Verb.ECHO, text("lost"), 200);
        assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(MessagingException.class,
                        e -> assertThat(e.reason()).isEqualTo(MessagingException.Reason.TIMEOUT));
        faults.set(FaultInjector.NONE);
        ByteBuf answer = a.messaging.send(b.address, 0, Verb.ECHO, text("back"), 5000).get();
        assertThat(echo(answer, new int[1])).isEqualTo("back");
    }

    @Test
    void droppedAnswersTimeOutToo() {
        Node a = new Node(1);
        Node b = new Node(1);
        faults.set((from, to, verb, response) -> response ? FaultInjector.DROP : 0);
        CompletableFuture<ByteBuf> f = a.messaging.send(b.address, 0, Verb.ECHO, text("one way"), 200);
        assertThatThrownBy(f::get).cause().isInstanceOfSatisfying(MessagingException.class,
                e -> assertThat(e.reason()).isEqualTo(MessagingException.Reason.TIMEOUT));
    }

    @Test
    void delayedRequestsArriveLate() throws Exception {
        Node a = new Node(1);
        Node b = new Node(1);
        faults.set((from, to, verb, response) -> response ? 0 : 300);
        long start = System.nanoTime();
        ByteBuf answer = a.messaging.send(b.address, 0, Verb.ECHO, text("slow"), 5000).get();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(290);
        assertThat(echo(answer, new int[1])).isEqualTo("slow");
    }

    @Test
    void anUnreachablePeerFailsTheRequest() throws Exception {
        Node a = new Node(1);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        CompletableFuture<ByteBuf> f = a.messaging.send(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0,
                Verb.ECHO, text("nobody"), 5000);
        assertThatThrownBy(f::get).cause().isInstanceOfSatisfying(MessagingException.class,
                e -> assertThat(e.reason()).isEqualTo(MessagingException.Reason.UNREACHABLE));
    }

    @Test
    void aPeerThatRestartsIsReconnected() throws Exception {
        Node a = new Node(1);
        Node b = new Node(1);
        echo(a.messaging.send(b.address, 0, Verb.ECHO, text("1"), 5000).get(), new int[1]);
        int port = b.address.getPort();
        b.close();
        open.remove(b);
        CompletableFuture<ByteBuf> during = a.messaging.send(b.address, 0, Verb.ECHO, text("2"), 1000);
        assertThatThrownBy(during::get).cause().isInstanceOf(MessagingException.class);
        // a new node (at its own address: the old port may not be reusable at once)
        Node b2 = new Node(1);
        assertThat(echo(a.messaging.send(b2.address, 0, Verb.ECHO, text("3"), 5000).get(), new int[1])).isEqualTo("3");
        assertThat(port).isPositive();
    }

    @Test
    void aRequestForAVerbWithoutHandlerFailsWithTheReason() throws Exception {
        Node a = new Node(1);
        MultiThreadIoEventLoopGroup g = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        MessagingService bare = new MessagingService(List.of((EventLoop) g.next()), g, NioServerSocketChannel.class,
                NioSocketChannel.class, () -> 1, FaultInjector.NONE);
        InetSocketAddress addr = bare.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        open.add(() -> {
            bare.close();
            g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        });
        CompletableFuture<ByteBuf> f = a.messaging.send(addr, 0, Verb.ECHO, text("?"), 5000);
        assertThatThrownBy(f::get).cause().isInstanceOfSatisfying(MessagingException.class, e -> {
            assertThat(e.reason()).isEqualTo(MessagingException.Reason.REMOTE_FAILURE);
            assertThat(e).hasMessageContaining("no handler for verb=ECHO");
        });
    }

    @Test
    void tooManyPendingRequestsAreRefusedAsAValue() throws Exception {
        Node a = new Node(1);
        Node b = new Node(1);
        faults.set((from, to, verb, response) -> FaultInjector.DROP);
        List<CompletableFuture<ByteBuf>> fs = new ArrayList<>();
        for (int i = 0; i <= MessagingService.MAX_PENDING; i++) {
            fs.add(a.messaging.send(b.address, 0, Verb.ECHO, text("x"), 30_000));
        }
        CompletableFuture<ByteBuf> last = fs.get(fs.size() - 1);
        assertThatThrownBy(last::get).cause().isInstanceOfSatisfying(MessagingException.class,
                e -> assertThat(e.reason()).isEqualTo(MessagingException.Reason.OVERLOADED));
        assertThat(fs.get(0)).isNotDone();
    }

    @Test
    void corruptFramesAndOtherVersionsCloseTheirConnectionOnly() throws Exception {
        Node b = new Node(1);
        for (byte[] bad : List.of(
                "GET / HTTP/1.1\r\n\r\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx".getBytes(StandardCharsets.US_ASCII),
                versionTwoFrame(),
                corruptChecksumFrame())) {
            try (Socket s = new Socket(b.address.getAddress(), b.address.getPort())) {
                s.setSoTimeout(5000);
                OutputStream out = s.getOutputStream();
                out.write(bad);
                out.flush();
                assertThat(s.getInputStream().read()).isEqualTo(-1); // closed by the node
            }
        }
        Node a = new Node(1);
        assertThat(echo(a.messaging.send(b.address, 0, Verb.ECHO, text("still here"), 5000).get(), new int[1]))
                .isEqualTo("still here");
    }

    private static byte[] versionTwoFrame() {
        ByteBuf f = FrameCodec.encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, FrameLayout.KIND_HANDSHAKE, 0,
                0, 0, 0, Unpooled.EMPTY_BUFFER);
        f.setByte(FrameLayout.VERSION_OFFSET, 2);
        byte[] b = new byte[f.readableBytes()];
        f.readBytes(b);
        f.release();
        return b;
    }

    private static byte[] corruptChecksumFrame() {
        ByteBuf p = Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4});
        ByteBuf f = FrameCodec.encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, FrameLayout.KIND_HANDSHAKE, 0,
                0, 0, 0, p);
        f.setByte(FrameLayout.HEADER_LENGTH + 1, 9); // flip a payload byte: the CRC no longer matches
        byte[] b = new byte[f.readableBytes()];
        f.readBytes(b);
        f.release();
        return b;
    }
}
