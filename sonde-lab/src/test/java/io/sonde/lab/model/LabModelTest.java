package io.sonde.lab.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.sonde.lab.load.ServantSpec;
import io.sonde.lab.server.ServerStrategy;
import io.sonde.lab.sweep.SweepPoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stage demands from a demand report, their mapping onto the model, and the model's predictions. */
class LabModelTest {

    private static String op(String name, long count, double wall, Double cpu) {
        return "{\"operation\":\"io.sonde.lab.server.LabServer." + name + "\",\"count\":" + count + ",\"roots\":0,"
                + "\"meanWallMillis\":" + wall + ",\"meanCpuMillis\":" + cpu + "}";
    }

    private static Path report(Path dir, String... ops) throws IOException {
        Path f = dir.resolve("d.json");
        Files.writeString(f, "{\"schema\":\"sonde-demands/1\",\"groups\":[{\"name\":\"a\",\"operations\":[" + String.join(",", ops)
                + "]},{\"name\":\"b\",\"operations\":[" + op("servant", 300, 12.0, 2.0) + "]}]}");
        return f;
    }

    @Test
    void stagesAreFoundByMethodNameAndWeightedByCount(@TempDir Path dir) throws IOException {
        StageDemands d = StageDemands.read(report(dir, op("receive", 100, 5.0, 0.02), op("dispatch", 100, 0.01, 0.005),
                op("servant", 100, 8.0, 1.0), op("reply", 100, 0.1, 0.03), op("enqueue", 100, 0.01, 0.004)));
        assertThat(d.requests()).isEqualTo(400);
        assertThat(d.servantCpuMs()).isCloseTo((100 * 1.0 + 300 * 2.0) / 400, offset(1e-12));
        assertThat(d.servantWallMs()).isCloseTo((100 * 8.0 + 300 * 12.0) / 400, offset(1e-12));
        assertThat(d.receiveCpuMs()).isEqualTo(0.02);
        assertThat(d.enqueueCpuMs()).isEqualTo(0.004);
        assertThat(d.lockCpuMs()).isZero();
        assertThat(d.threadStartCpuMs()).isZero();
    }

    @Test
    void badReportsAreNamed(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("x.json");
        Files.writeString(f, "{\"schema\":\"sonde-analysis/1\"}");
        assertThatThrownBy(() -> StageDemands.read(f)).hasMessageContaining("x.json").hasMessageContaining("sonde-demands/1");
        Files.writeString(f, "{\"schema\":\"sonde-demands/1\",\"groups\":[{\"operations\":[" + op("receive", 3, 1.0, null) + "]}]}");
        assertThatThrownBy(() -> StageDemands.read(f)).hasMessageContaining("cpu.time=on").hasMessageContaining("LabServer.receive");
        Files.writeString(f, "{\"schema\":\"sonde-demands/1\",\"groups\":[]}");
        assertThatThrownBy(() -> StageDemands.read(f)).hasMessageContaining("*.servant");
        Files.writeString(f, "{not json");
        assertThatThrownBy(() -> StageDemands.read(f)).hasMessageContaining("x.json");
    }

    private static final StageDemands SLEEPER = new StageDemands(0.02, 0.005, 0.01, 10.0, 0.03, 0.01, 0.5, 0.1, 0.004, 500);

    @Test
    void parametersFollowTheStrategy() {
        LabModel threaded = new LabModel(ServerStrategy.THREADED, 0, SLEEPER, true, false, 1.0, 0.2, 2, 1);
        assertThat(threaded.parameters()).containsEntry("b_disp_ms", 0.015).containsEntry("b_enqueue_ms", 0.0)
                .containsEntry("network_request_ms", 0.5).containsEntry("servant_delay_ms", 10.0).containsEntry("receiver_phase2_ms", 0.2);
        LabModel pool = new LabModel(ServerStrategy.THREAD_POOL, 4, SLEEPER, false, false, 0, 0, 2, 2);
        assertThat(pool.parameters()).containsEntry("b_enqueue_ms", 0.008).containsEntry("servant_cpu_ms", 0.02)
                .containsEntry("b_disp_ms", 0.01);
        assertThat(new LabModel(ServerStrategy.THREAD_PER_REQUEST, 0, SLEEPER, true, false, 0, 0, 2, 1).parameters())
                .containsEntry("b_tc_parent_ms", 0.1);
        assertThatThrownBy(() -> new LabModel(ServerStrategy.THREAD_POOL, 0, SLEEPER, true, false, 0, 0, 2, 1))
                .hasMessageContaining("--pool");
        assertThatThrownBy(() -> new LabModel(ServerStrategy.THREADED, 0, SLEEPER, true, false, 0, 0, 2, 0.5))
                .hasMessageContaining("slowdown");
    }

    @Test
    void aLockedSleepQueuesTheClientsAndTheNetworkIsFittedToOneClient() {
        LabModel m = new LabModel(ServerStrategy.THREADED, 0, SLEEPER, true, false, 0, 0, 2, 1);
        double one = m.predict(1, 1, 2).responseMs();
        assertThat(one).isCloseTo(10.07, offset(0.05)); // the sleep and the stages' CPU
        // four clients share one lock held for 10 ms: each waits for the three others
        assertThat(m.predict(4, 1, 2).responseMs()).isCloseTo(4 * one, offset(0.5));
        LabModel fitted = m.calibrateNetwork(12.0, 1, 2);
        // about the difference; the simulated exponential network delays' sample mean is 0.7 %
        // below their mean, which the fit makes up for
        assertThat(fitted.networkMs()).isCloseTo(12.0 - one, offset(0.03));
        assertThat(fitted.predict(1, 1, 2).responseMs()).isCloseTo(12.0, offset(0.05));
        // the pool of 4 runs four sleeps at once: no queueing at 4 clients
        LabModel pool = new LabModel(ServerStrategy.THREAD_POOL, 4, SLEEPER, true, false, 0, 0, 2, 1);
        assertThat(pool.predict(4, 1, 2).responseMs()).isCloseTo(one, offset(0.2));
    }

    @Test
    void extraCpuAndSlowdownComeFromTheLowLoadRun() {
        StageDemands d = new StageDemands(0.02, 0.005, 2.0, 3.0, 0.03, 0, 0, 0, 0, 500);
        SweepPoint p1 = new SweepPoint(1, 100, 3, 3, 3, 3, 300, 2.3, 0.3, 0.1);
        SweepPoint p2 = new SweepPoint(2, 100, 3, 3, 3, 3, 600, 2.5, 0.6, 0.1);
        assertThat(Calibration.extraCpuMs(d, List.of(p1, p2))).isCloseTo(2.5 - 2.055, offset(1e-9));
        assertThat(Calibration.slowdown(d, false)).isEqualTo(1.5);
        assertThat(Calibration.slowdown(d, true)).isEqualTo(1.0);
    }

    @Test
    void sleepingDispatchersHoldNoProcessor() {
        // thread-per-request, constant 10 ms sleep, 0.155 ms CPU per request (receive 0.02,
        // thread start 0.1, dispatch 0.005, reply 0.03). Even if all 64 requests arrived at once,
        // their CPU (64 * 0.155 ms on 2 processors) would delay one by at most 4.96 ms; if the
        // sleeps held a processor, 64 of them on 2 would take 64 * 10 / 2 = 320 ms
        LabModel m = new LabModel(ServerStrategy.THREAD_PER_REQUEST, 0, SLEEPER, true, false, 0, 0, 2, 1);
        double one = m.predict(1, 1, 2).responseMs();
        assertThat(one).isCloseTo(10.155, offset(0.05));
        assertThat(m.predict(64, 1, 2).responseMs()).isBetween(one, one + 64 * 0.155 / 2);
    }

    @Test
    void theModelTakesTheSlowdownAtOneClientAndTheCpuOutsideTheStagesWithoutTheAgent() {
        // traced at 1 and 2 clients: servant wall/CPU 1.5 (the second request and the generator
        // competed for the processors); at one client alone 2.1 / 2.0 = 1.05
        StageDemands traced = new StageDemands(0.02, 0.005, 2.0, 3.0, 0.03, 0, 0, 0, 0, 500);
        StageDemands oneClient = new StageDemands(0.02, 0.005, 2.0, 2.1, 0.03, 0, 0, 0, 0, 250);
        // without the agent: server + generator CPU 2.2 + 0.1 and 2.3 + 0.1 ms per request
        SweepPoint p1 = new SweepPoint(1, 100, 2.6, 2.6, 2.6, 2.6, 380, 2.2, 0.4, 0.1);
        SweepPoint p2 = new SweepPoint(2, 100, 2.7, 2.7, 2.7, 2.7, 740, 2.3, 0.8, 0.1);
        ServantSpec constant2ms = new ServantSpec(false, 2_000_000, false);
        LabModel m = Calibration.model(ServerStrategy.THREAD_PER_CLIENT, 0, constant2ms, traced, oneClient, List.of(p1, p2), 2, 1, 2);
        assertThat(m.cpuSlowdown()).isCloseTo(1.05, offset(1e-9));
        // mean of 2.3 and 2.4 ms, less the stages' 0.02 + 0.005 + 2.0 + 0.03 ms
        assertThat(m.extraCpuMs()).isCloseTo(2.35 - 2.055, offset(1e-9));
        assertThat(m.servantMs()).isCloseTo(2.1, offset(1e-9));
        // The network n solves 2.6 = 2.15775 + n + E[(p - S)+]: the stretched stages (2.055 * 1.05),
        // the round trip, and what is left of the receiver's 2nd phase p = 0.295 * 1.05 = 0.30975 ms
        // when the next request arrives after the reply's and the request's exponential delays
        // (mean n/2 each, so S ~ Gamma(2, n/2)). By hand, with x = p / (n/2):
        // E[(p - S)+] = p (1 - e^-x (1 + x)) - n (1 - e^-x (1 + x + x^2/2)); n = 0.38 gives
        // x = 1.632, 0.31 * 0.485 - 0.38 * 0.225 = 0.065, and 2.158 + 0.38 + 0.065 = 2.603.
        // Taking the difference to the model without network, as before, gives 2.6 - 2.468 = 0.13.
        assertThat(m.networkMs()).isCloseTo(0.38, offset(0.01));
        assertThat(m.predict(1, 1, 2).responseMs()).isCloseTo(2.6, offset(0.05));
        assertThatThrownBy(() -> Calibration.model(ServerStrategy.THREAD_PER_CLIENT, 0, constant2ms, traced, oneClient,
                List.of(p2), 2, 1, 2)).hasMessageContaining("one-client point");
    }
}
