package io.charybdis.node.server;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

class ClientLimitsTest {
    static final InetAddress A = InetAddress.getLoopbackAddress();
    static final InetAddress B;

    static {
        try {
            B = InetAddress.getByName("127.0.0.2");
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldRefuseConnectionsBeyondTheNodeLimitInCassandrasWords() {
        ClientLimits limits = new ClientLimits(2, -1, 100, 100);
        ClientLimits.Endpoint a1 = limits.connect(A);
        ClientLimits.Endpoint b1 = limits.connect(B);
        assertThat(limits.refusal(a1)).isNull();
        assertThat(limits.refusal(b1)).isNull();
        ClientLimits.Endpoint a2 = limits.connect(A);
        assertThat(limits.refusal(a2)).isEqualTo("Exceeded maximum native connection limit of 2 by using 3 connections");
        limits.disconnect(a2);
        limits.disconnect(b1);
        assertThat(limits.refusal(limits.connect(B))).isNull();
    }

    @Test
    void shouldRefuseConnectionsBeyondThePerIpLimit() {
        ClientLimits limits = new ClientLimits(-1, 1, 100, 100);
        ClientLimits.Endpoint a1 = limits.connect(A);
        assertThat(limits.refusal(a1)).isNull();
        assertThat(limits.refusal(limits.connect(B))).isNull();
        ClientLimits.Endpoint a2 = limits.connect(A);
        assertThat(limits.refusal(a2))
                .isEqualTo("Exceeded maximum native connection limit per ip of 1 by using 2 connections");
        limits.disconnect(a2);
        limits.disconnect(a1);
        assertThat(limits.refusal(limits.connect(A))).isNull();
    }

    @Test
    void shouldTreatZeroAndMinusOneAsUnlimitedConnections() {
        ClientLimits limits = new ClientLimits(0, -1, 100, 100);
        for (int i = 0; i < 1000; i++) {
            assertThat(limits.refusal(limits.connect(A))).isNull();
        }
        assertThat(limits.connections()).isEqualTo(1000);
    }

    @Test
    void shouldRefuseBytesOverEitherLimitAndTakeNothing() {
        ClientLimits limits = new ClientLimits(-1, -1, 150, 100);
        ClientLimits.Endpoint a = limits.connect(A);
        ClientLimits.Endpoint b = limits.connect(B);
        assertThat(limits.tryAcquire(a, 80)).isEqualTo(ClientLimits.Outcome.SUCCESS);
        assertThat(limits.tryAcquire(a, 30)).isEqualTo(ClientLimits.Outcome.ENDPOINT_LIMIT);
        assertThat(limits.tryAcquire(b, 80)).isEqualTo(ClientLimits.Outcome.GLOBAL_LIMIT);
        assertThat(limits.bytesInFlight()).isEqualTo(80);
        assertThat(limits.bytesInFlight(B)).isZero();
        assertThat(limits.usage(a)).isEqualTo("Endpoint: 80/100 bytes, Global: 80/150 bytes.");
        limits.acquire(b, 80);
        assertThat(limits.release(b, 80)).isTrue();
        assertThat(limits.release(a, 80)).isTrue();
        assertThat(limits.bytesInFlight()).isZero();
    }

    @Test
    void shouldForgetAnAddressOnlyWhenItHasNeitherConnectionsNorBytes() {
        ClientLimits limits = new ClientLimits(-1, -1, 1000, 1000);
        ClientLimits.Endpoint a = limits.connect(A);
        limits.acquire(a, 10);
        limits.disconnect(a);
        assertThat(limits.bytesInFlight(A)).isEqualTo(10);
        ClientLimits.Endpoint again = limits.connect(A);
        assertThat(again).isSameAs(a);
        limits.disconnect(again);
        limits.release(a, 10);
        assertThat(limits.bytesInFlight(A)).isZero();
        assertThat(limits.connect(A)).isNotSameAs(a);
    }
}
