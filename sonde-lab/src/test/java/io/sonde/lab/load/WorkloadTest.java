package io.sonde.lab.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.lab.server.LabServer;
import io.sonde.lab.server.ServerStrategy;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The generator's counts, rates and bounds against a real server. */
class WorkloadTest {
    private static final ServantSpec DELAY_5MS = new ServantSpec(true, 5_000_000, false);

    @Test
    void closedClientsMeasureExactlyTheRequestedCountAtTheClosedRate() throws Exception {
        try (LabServer server = new LabServer(ServerStrategy.THREAD_PER_CLIENT, 0)) {
            int port = server.start(0);
            // 2 clients, 5 ms sleep + 5 ms think: each client at most one request per 10 ms
            ResponseTimes rt = new ClosedWorkload(2, DELAY_5MS, 5_000_000, false, 1, 10, 100, Duration.ofSeconds(60)).run(port);
            assertThat(rt.count()).isEqualTo(100);
            assertThat(rt.meanMillis()).isBetween(5.0, 60.0);
            assertThat(rt.throughputPerSecond()).isBetween(20.0, 200.0 * 1.05);
            assertThat(server.stats().servantCalls()).isBetween(110L, 112L); // at most one extra in flight per client
        }
    }

    @Test
    void openArrivalsComeAtTheRequestedRate() throws Exception {
        try (LabServer server = new LabServer(ServerStrategy.THREAD_POOL, 4)) {
            int port = server.start(0);
            long start = System.nanoTime();
            ResponseTimes rt = new OpenWorkload(200, 2, new ServantSpec(true, 1_000_000, true), 3, 20, 300, Duration.ofSeconds(60)).run(port);
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(rt.count()).isEqualTo(300);
            assertThat(server.stats().servantCalls()).isEqualTo(320);
            // 320 arrivals at 200/s take 1.6 s on average; a Poisson sum of 320 gaps is within
            // +-20 % with overwhelming probability, and a loaded machine can only add delay
            assertThat(seconds).isBetween(1.6 * 0.8, 1.6 * 3);
            assertThat(rt.throughputPerSecond()).isBetween(200 / 3.0, 200 * 1.25);
        }
    }

    @Test
    void aRunEndsAtItsTimeBound() throws Exception {
        try (LabServer server = new LabServer(ServerStrategy.THREAD_PER_CLIENT, 0)) {
            int port = server.start(0);
            long start = System.nanoTime();
            ResponseTimes rt = new ClosedWorkload(2, DELAY_5MS, 0, false, 1, 0, 1_000_000, Duration.ofMillis(500)).run(port);
            assertThat((System.nanoTime() - start) / 1e9).isLessThan(10.0);
            assertThat(rt.count()).isBetween(1, 1_000);
        }
    }

    @Test
    void exponentialDemandsHaveTheirMean() {
        ServantSpec s = new ServantSpec(false, 2_000_000, true);
        SplittableRandom r = new SplittableRandom(5);
        double sum = 0;
        for (int i = 0; i < 20_000; i++) {
            sum += s.draw(r);
        }
        assertThat(sum / 20_000 / 1e6).isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.06));
        assertThat(new ServantSpec(false, 2_000_000, false).draw(r)).isEqualTo(2_000_000);
    }

    @Test
    void statisticsAndBadSettings() {
        ResponseTimes rt = new ResponseTimes(new long[] {4_000_000, 1_000_000, 3_000_000, 2_000_000}, 2_000_000_000L);
        assertThat(rt.meanMillis()).isEqualTo(2.5);
        assertThat(rt.percentileMillis(50)).isEqualTo(2.0);
        assertThat(rt.percentileMillis(100)).isEqualTo(4.0);
        assertThat(rt.throughputPerSecond()).isEqualTo(2.0);
        assertThatThrownBy(() -> new ClosedWorkload(0, DELAY_5MS, 0, false, 1, 0, 1, Duration.ofSeconds(1)))
                .hasMessageContaining("clients");
        assertThatThrownBy(() -> new OpenWorkload(0, 1, DELAY_5MS, 1, 0, 1, Duration.ofSeconds(1)))
                .hasMessageContaining("arrival rate");
    }
}
