package io.charybdis.node.server;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestRateLimiterTest {
    static final long SECOND = 1_000_000_000L;

    @Test
    void shouldAdmitOneSecondOfRequestsAtOnceThenSpaceThem() {
        AtomicLong now = new AtomicLong(42 * SECOND);
        RequestRateLimiter limiter = new RequestRateLimiter(10, now::get);
        for (int i = 0; i < 10; i++) {
            assertThat(limiter.reserveAndGetDelayNanos()).isZero();
        }
        assertThat(limiter.reserveAndGetDelayNanos()).isEqualTo(0);
        assertThat(limiter.reserveAndGetDelayNanos()).isEqualTo(SECOND / 10);
        assertThat(limiter.reserveAndGetDelayNanos()).isEqualTo(2 * SECOND / 10);
    }

    @Test
    void shouldRefuseWithoutReservingWhenNoPermitIsFree() {
        AtomicLong now = new AtomicLong(0);
        RequestRateLimiter limiter = new RequestRateLimiter(2, now::get);
        assertThat(limiter.tryReserve()).isTrue();
        assertThat(limiter.tryReserve()).isTrue();
        assertThat(limiter.tryReserve()).isTrue();
        assertThat(limiter.tryReserve()).isFalse();
        assertThat(limiter.tryReserve()).isFalse();
        now.addAndGet(SECOND / 2);
        assertThat(limiter.tryReserve()).isTrue();
        assertThat(limiter.tryReserve()).isFalse();
    }

    @Test
    void shouldNotSaveUpMoreThanOneSecondOfPermits() {
        AtomicLong now = new AtomicLong(0);
        RequestRateLimiter limiter = new RequestRateLimiter(4, now::get);
        now.addAndGet(3600 * SECOND);
        int admitted = 0;
        while (limiter.tryReserve()) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(5);
    }

    @Test
    void shouldRejectANonPositiveRate() {
        assertThatThrownBy(() -> new RequestRateLimiter(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
