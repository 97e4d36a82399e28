package io.charybdis.stress.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateGateTest {

    @Test
    void shouldScheduleFixedRateFromIntendedStartsEvenWhenLate() {
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        RateGate gate = new RateGate(1000, true, clock::get);
        gate.reset(1_000_000_000L);
        assertThat(gate.take()).isEqualTo(1_000_000_000L);
        assertThat(gate.take()).isEqualTo(1_001_000_000L);
        // the client stalls for a second: the schedule does not move, so the next operations are "late" and
        // their latency (measured from these intended starts) includes the stall
        clock.addAndGet(1_000_000_000L);
        assertThat(gate.take()).isEqualTo(1_002_000_000L);
        assertThat(gate.take()).isEqualTo(1_003_000_000L);
    }

    @Test
    void shouldNotBurstAfterAStallWhenThrottling() {
        AtomicLong clock = new AtomicLong(0);
        RateGate gate = new RateGate(1000, false, clock::get);
        gate.reset(0);
        assertThat(gate.take()).isEqualTo(0);
        assertThat(gate.take()).isEqualTo(1_000_000L);
        clock.set(5_000_000_000L);
        assertThat(gate.take()).isEqualTo(5_000_000_000L);
        assertThat(gate.take()).isEqualTo(5_001_000_000L);
    }

    @Test
    void shouldMeasureFixedRateLatencyFromIntendedStart() throws Exception {
        RateGate gate = new RateGate(2000, true, System::nanoTime);
        long start = System.nanoTime();
        gate.reset(start);
        long last = 0;
        for (int i = 0; i < 200; i++) {
            last = gate.acquire();
            assertThat(System.nanoTime()).isGreaterThanOrEqualTo(last);
        }
        assertThat(last - start).isEqualTo(199 * 500_000L);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(99_000_000L);
    }

    @Test
    void shouldReportUncertaintyAsRelativeStandardError() {
        var u = new io.charybdis.stress.report.Uncertainty();
        u.update(100);
        assertThat(u.get()).isZero();
        u.update(100);
        assertThat(u.get()).isZero();
        u.update(130);
        // mean 110, sample stdev sqrt(300) = 17.32, / sqrt(3) = 10 -> 10 / 110
        assertThat(u.get()).isCloseTo(10d / 110d, org.assertj.core.api.Assertions.within(1e-9));
    }
}
