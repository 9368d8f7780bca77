package io.sonde.lab.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.lab.load.ClosedWorkload;
import io.sonde.lab.load.ResponseTimes;
import io.sonde.lab.load.ServantSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each strategy behaves as specified, checked on a real server with real TCP clients. */
class LabServerTest {
    private static final ServantSpec DELAY_10MS = new ServantSpec(true, 10_000_000, false);
    private static final ServantSpec CPU_1MS = new ServantSpec(false, 1_000_000, false);

    private static ResponseTimes load(LabServer server, int clients, ServantSpec servant, int requests) throws Exception {
        int port = server.start(0);
        return new ClosedWorkload(clients, servant, 0, false, 7, 0, requests, Duration.ofSeconds(60)).run(port);
    }

    @Test
    void threadedNeverRunsTwoServantCallsAtOnce() throws Exception {
        try (LabServer server = new LabServer(ServerStrategy.THREADED, 0)) {
            ResponseTimes rt = load(server, 8, DELAY_10MS, 80);
            assertThat(rt.count()).isEqualTo(80);
            assertThat(server.stats().servantCalls()).isGreaterThanOrEqualTo(80);
            assertThat(server.stats().maxConcurrentServants()).isEqualTo(1);
            assertThat(server.stats().receiverThreads()).isEqualTo(8);
        }
    }

    @Test
    void threadPerClientRunsServantsInParallelWithOneThreadPerConnection() throws Exception {
        // the same load as above without the lock: the concurrency counter does see overlap
        try (LabServer server = new LabServer(ServerStrategy.THREAD_PER_CLIENT, 0)) {
            load(server, 8, DELAY_10MS, 80);
            assertThat(server.stats().receiverThreads()).isEqualTo(8);
            assertThat(server.stats().maxConcurrentServants()).isBetween(2, 8);
            assertThat(server.stats().dispatcherThreads()).isZero();
            assertThat(server.stats().poolThreads()).isZero();
        }
    }

    @Test
    void threadPerRequestStartsOneThreadPerRequest() throws Exception {
        try (LabServer server = new LabServer(ServerStrategy.THREAD_PER_REQUEST, 0)) {
            load(server, 3, CPU_1MS, 60);
            long calls = server.stats().servantCalls();
            assertThat(calls).isGreaterThanOrEqualTo(60);
            assertThat(server.stats().dispatcherThreads()).isEqualTo(calls);
            assertThat(server.stats().receiverThreads()).isEqualTo(3);
        }
    }

    @Test
    void poolNeverExceedsItsSize() throws Exception {
        try (LabServer server = new LabServer(ServerStrategy.THREAD_POOL, 3)) {
            load(server, 10, DELAY_10MS, 100);
            assertThat(server.stats().poolThreads()).isEqualTo(3);
            // 10 clients keep 3 dispatchers busy: the bound is reached and never passed
            assertThat(server.stats().maxConcurrentServants()).isEqualTo(3);
            assertThat(server.stats().dispatcherThreads()).isZero();
        }
    }

    @Test
    void cpuServantSpendsItsDemandAsThreadCpuTime() throws Exception {
        try (LabServer server = new LabServer(ServerStrategy.THREAD_PER_CLIENT, 0)) {
            ResponseTimes rt = load(server, 1, new ServantSpec(false, 5_000_000, false), 20);
            // at least the demand; the upper bound is generous for a loaded machine
            assertThat(rt.percentileMillis(50)).isBetween(5.0, 100.0);
        }
        long before = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        Servant.spendCpu(3_000_000);
        long used = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - before;
        assertThat(used).isBetween(3_000_000L, 13_000_000L);
    }

    @Test
    void badSettingsAreRejected() {
        assertThatThrownBy(() -> new LabServer(ServerStrategy.THREAD_POOL, 0)).hasMessageContaining("pool size");
        assertThatThrownBy(() -> ServerStrategy.parse("fork")).hasMessageContaining("unknown strategy 'fork'");
        assertThat(ServerStrategy.parse("Thread-Pool")).isEqualTo(ServerStrategy.THREAD_POOL);
    }
}
