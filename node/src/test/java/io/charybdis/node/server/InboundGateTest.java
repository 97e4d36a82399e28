package io.charybdis.node.server;

import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The gate on an embedded channel: its pauses, its backlog, and the bytes it holds, request by request. */
class InboundGateTest {
    static final int BODY = 91; // cost 100 with the 9-byte header

    EmbeddedChannel channel;
    ChannelHandlerContext ctx;
    ClientLimits limits;
    InboundGate gate;
    final List<Integer> served = new ArrayList<>();

    void open(long maxBytes, long maxBytesPerIp, RequestRateLimiter rate, boolean throwOnOverload) {
        channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ctx = channel.pipeline().firstContext();
        limits = new ClientLimits(-1, -1, maxBytes, maxBytesPerIp);
        ClientLimits.Endpoint endpoint = limits.connect(InetAddress.getLoopbackAddress());
        gate = new InboundGate(ctx, limits, endpoint, rate, env -> {
            int stream = env.streamId();
            InboundGate.Admission a = gate.admit(InboundGate.cost(env), throwOnOverload);
            env.release();
            served.add(a == InboundGate.Admission.ADMITTED ? stream : -stream);
        });
    }

    @BeforeEach
    void clear() {
        served.clear();
    }

    @AfterEach
    void close() {
        gate.close();
        channel.finishAndReleaseAll();
    }

    static Envelope request(int stream) {
        return new Envelope(ProtocolVersion.V4, 0, stream, Opcode.QUERY, Unpooled.buffer(BODY).writeZero(BODY));
    }

    void offer(int from, int to) {
        for (int i = from; i < to; i++) {
            gate.offer(request(i));
        }
    }

    @Test
    void shouldStopReadingOverTheBytesLimitAndResumeWhenAnswered() {
        open(10_000, 350, null, false);
        offer(0, 10);
        // the 4th request goes over 350 bytes: still served, then the connection stops; the rest waits
        assertThat(served).containsExactly(0, 1, 2, 3);
        assertThat(gate.paused() & InboundGate.PAUSED_IN_FLIGHT).isNotZero();
        assertThat(channel.config().isAutoRead()).isFalse();
        assertThat(limits.bytesInFlight()).isEqualTo(400);
        gate.answered(100);
        gate.answered(100); // 200 bytes left, below the limit: the backlog is served until over it again
        assertThat(served).containsExactly(0, 1, 2, 3, 4, 5);
        for (int i = 0; i < 8; i++) {
            gate.answered(100);
        }
        assertThat(served).hasSize(10);
        assertThat(gate.paused()).isZero();
        assertThat(channel.config().isAutoRead()).isTrue();
        assertThat(gate.bytesInFlight()).isZero();
        assertThat(limits.bytesInFlight()).isZero();
        assertThat(limits.pausesForInFlight()).isPositive();
    }

    @Test
    void shouldRefuseOverTheLimitWithThrowOnOverloadAndKeepReading() {
        open(10_000, 250, null, true);
        offer(0, 4);
        assertThat(served).containsExactly(0, 1, -2, -3);
        assertThat(gate.paused()).isZero();
        assertThat(limits.bytesInFlight()).isEqualTo(200);
        assertThat(gate.overloadedMessage(InboundGate.Admission.OVER_BYTES_IN_FLIGHT)).isEqualTo(
                "Request breached limit on bytes in flight. (Endpoint: 200/250 bytes, Global: 200/10000 bytes.)"
                        + " Server is currently in an overloaded state and cannot accept more requests.");
        gate.answered(100);
        gate.answered(100);
        assertThat(limits.bytesInFlight()).isZero();
    }

    @Test
    void shouldYieldAfterAFullTurnAndResumeFromATask() {
        open(Long.MAX_VALUE, Long.MAX_VALUE, null, false);
        offer(0, 100);
        assertThat(served).hasSize(InboundGate.MAX_SERVED_PER_TURN);
        assertThat(gate.paused()).isEqualTo(InboundGate.PAUSED_YIELD);
        channel.runPendingTasks();
        assertThat(served).hasSize(100);
        assertThat(gate.paused()).isZero();
        assertThat(limits.pausesForWritability() + limits.pausesForInFlight() + limits.pausesForBusy()).isZero();
    }

    @Test
    void shouldCapRequestsInProgressPerConnection() {
        open(Long.MAX_VALUE, Long.MAX_VALUE, null, false);
        int total = InboundGate.MAX_REQUESTS_IN_PROGRESS + 100;
        offer(0, total);
        while (channel.hasPendingTasks()) {
            channel.runPendingTasks();
        }
        assertThat(served).hasSize(InboundGate.MAX_REQUESTS_IN_PROGRESS);
        assertThat(gate.paused() & InboundGate.PAUSED_BUSY).isNotZero();
        for (int i = 0; i < InboundGate.MAX_REQUESTS_IN_PROGRESS / 2 - 1; i++) {
            gate.answered(100);
        }
        assertThat(served).hasSize(InboundGate.MAX_REQUESTS_IN_PROGRESS);
        gate.answered(100); // half answered: reading resumes
        while (channel.hasPendingTasks()) {
            channel.runPendingTasks();
        }
        assertThat(served).hasSize(total);
        assertThat(limits.pausesForBusy()).isEqualTo(1);
    }

    @Test
    void shouldStopReadingWhileTheClientDoesNotReadItsAnswers() {
        open(Long.MAX_VALUE, Long.MAX_VALUE, null, false);
        gate.writabilityChanged(false);
        offer(0, 5);
        assertThat(served).isEmpty();
        assertThat(channel.config().isAutoRead()).isFalse();
        gate.writabilityChanged(true);
        assertThat(served).containsExactly(0, 1, 2, 3, 4);
        assertThat(channel.config().isAutoRead()).isTrue();
    }

    @Test
    void shouldReleaseTheBacklogWhenClosed() {
        open(Long.MAX_VALUE, Long.MAX_VALUE, null, false);
        gate.writabilityChanged(false);
        List<Envelope> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Envelope e = request(i);
            waiting.add(e);
            gate.offer(e);
        }
        gate.close();
        assertThat(waiting).allMatch(e -> e.refCnt() == 0);
    }
}
