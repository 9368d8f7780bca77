package io.sonde.sim.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sonde.sim.profile.CalibrationProfile;
import org.junit.jupiter.api.Test;

/** The threading-strategy models: exact cases, decompositions, strategy-specific behaviour, determinism. */
class MiddlewareModelTest {

    private static final CalibrationProfile P = CalibrationProfile.defaultProfile();

    private static MiddlewareConfig closed(Strategy s, int clients, double servant, boolean delay, boolean exp,
            String scheduler, int reps) {
        return new MiddlewareConfig(s, clients, clients, servant, delay, exp, 200, 0, 0, 0, 1, scheduler, P, 7, reps);
    }

    private static MiddlewareConfig open(Strategy s, int pool, double ratePerSecond, String scheduler) {
        return new MiddlewareConfig(s, 0, pool, 5.0, false, true, 0, ratePerSecond / 1000, 3000, 1, 1, scheduler, P, 3, 4);
    }

    @Test
    void oneClientWithDeterministicDemandsRespondsInExactlyTheSumOfItsSteps() {
        SimulationResult r = MiddlewareModel.run(closed(Strategy.THREAD_PER_CLIENT, 1, 5.0, false, false, "ps", 2)
                .withProfile(P.with("network_delay", "deterministic")));
        // request network + wake-up (base + per thread of the process) + b_rec + b_disp + b_unm
        // + servant + b_mar + b_reply: nothing else is on the single CPU.
        double expected = P.number("network_request_ms")
                + P.number("socket_wakeup_ms") + P.number("wakeup_per_thread_ms") * 1
                + P.number("b_rec_ms") + P.number("b_disp_ms") + P.number("b_unm_ms") + 5.0
                + P.number("b_mar_ms") + P.number("b_reply_ms");
        assertThat(r.mean("response_time_ms")).isCloseTo(expected, within(1e-9));
        assertThat(r.get("response_time_ms").ci95()).isCloseTo(0.0, within(1e-9));
    }

    @Test
    void threadPoolResponseIsTheSumOfQueuesAndFirstPhases() {
        for (String scheduler : new String[] {"ps", "linux24"}) {
            SimulationResult r = MiddlewareModel.run(open(Strategy.THREAD_POOL, 3, 100, scheduler));
            double parts = r.mean("receiver_queue_ms") + r.mean("receiver_phase1_ms") + r.mean("dispatcher_queue_ms")
                    + r.mean("dispatcher_phase1_ms");
            assertThat(r.mean("response_time_ms")).as(scheduler).isCloseTo(parts, within(0.02 * parts));
            assertThat(r.mean("receiver_holding_ms")).isGreaterThanOrEqualTo(r.mean("receiver_phase1_ms"));
            assertThat(r.mean("dispatcher_holding_ms")).isGreaterThanOrEqualTo(r.mean("dispatcher_phase1_ms"));
            assertThat(r.mean("throughput_per_s")).isCloseTo(100, within(8.0));
        }
    }

    @Test
    void theOrbMutexSerialisesServantDelaysInTheThreadedStrategy() {
        // 4 clients, 20 ms deterministic servant delay: the ORB mutex admits one request at a time,
        // so at most 1000 / 20 = 50 requests per second; thread-per-client overlaps the delays.
        SimulationResult threaded = MiddlewareModel.run(closed(Strategy.THREADED, 4, 20, true, false, "ps", 3));
        SimulationResult perClient = MiddlewareModel.run(closed(Strategy.THREAD_PER_CLIENT, 4, 20, true, false, "ps", 3));
        assertThat(threaded.mean("throughput_per_s")).isLessThanOrEqualTo(50.5);
        assertThat(threaded.mean("mutex_contention_ms")).isGreaterThan(20);
        assertThat(perClient.mean("throughput_per_s")).isGreaterThan(100);
        assertThat(perClient.get("mutex_contention_ms")).isNull();
    }

    @Test
    void threadPerRequestMeasuresHandoverAndCostsMoreCpuThanThreadPool() {
        SimulationResult tpr = MiddlewareModel.run(open(Strategy.THREAD_PER_REQUEST, 1, 100, "linux24"));
        SimulationResult pool = MiddlewareModel.run(open(Strategy.THREAD_POOL, 8, 100, "linux24"));
        assertThat(tpr.mean("handover_ms")).isGreaterThan(P.number("b_tc_parent_ms"));
        assertThat(tpr.get("dispatcher_queue_ms")).isNull();
        assertThat(pool.get("handover_ms")).isNull();
        assertThat(tpr.mean("cpu_utilization")).isGreaterThan(pool.mean("cpu_utilization"));
    }

    @Test
    void linuxSchedulerMakesTheReceiverWaitForManyDispatchers() {
        // Thesis 4.7.2 / Table 5.2: with many dispatchers the receiver's priority drops below theirs
        // and its holding time grows to include a dispatcher's run; with one dispatcher it does not.
        SimulationResult one = MiddlewareModel.run(open(Strategy.THREAD_POOL, 1, 100, "linux24"));
        SimulationResult ten = MiddlewareModel.run(open(Strategy.THREAD_POOL, 10, 100, "linux24"));
        assertThat(one.mean("receiver_holding_ms")).isLessThan(1.5);
        assertThat(ten.mean("receiver_holding_ms")).isGreaterThan(4.0);
        assertThat(ten.mean("dispatcher_queue_ms")).isLessThan(one.mean("dispatcher_queue_ms"));
    }

    @Test
    void sameSeedGivesByteIdenticalResultsAndAnotherSeedDiffers() {
        MiddlewareConfig c = closed(Strategy.THREAD_POOL, 4, 5, false, true, "linux24", 3);
        String a = withoutSpeed(MiddlewareModel.run(c).toJson());
        String b = withoutSpeed(MiddlewareModel.run(c).toJson());
        MiddlewareConfig other = new MiddlewareConfig(c.strategy(), 4, 4, 5, false, true, 200, 0, 0, 0, 1, "linux24", P, 8, 3);
        assertThat(a).isEqualTo(b);
        assertThat(withoutSpeed(MiddlewareModel.run(other).toJson())).isNotEqualTo(a);
    }

    private static String withoutSpeed(String json) {
        return json.replaceAll("\"events_per_s\":\\{[^}]*\\}", "");
    }

    @Test
    void everyDocumentedKeyIsInTheJson() {
        String json = MiddlewareModel.run(closed(Strategy.THREAD_PER_CLIENT, 2, 0.5, false, true, "rr", 2)).toJson();
        for (String k : new String[] {"response_time_ms", "receiver_queue_ms", "dispatcher_queue_ms", "receiver_holding_ms",
                "dispatcher_holding_ms", "receiver_phase1_ms", "dispatcher_phase1_ms", "mutex_contention_ms", "handover_ms",
                "throughput_per_s", "cpu_utilization", "events_per_s"}) {
            assertThat(json).contains("\"" + k + "\":");
        }
        assertThat(json).contains("\"dispatcher_queue_ms\":null").contains("\"response_time_ms\":{\"mean\":");
    }

    @Test
    void invalidConfigurationsNameTheOption() {
        assertThatThrownBy(() -> closed(Strategy.THREAD_POOL, 0, 5, false, true, "ps", 2))
                .hasMessageContaining("--clients");
        assertThatThrownBy(() -> closed(Strategy.THREAD_POOL, 2, 5, false, true, "fifo", 2))
                .hasMessageContaining("--scheduler");
        assertThatThrownBy(() -> new MiddlewareConfig(Strategy.THREAD_POOL, 2, 0, 5, false, true, 200, 0, 0, 0, 1, "ps", P, 1, 2))
                .hasMessageContaining("--pool-size");
        assertThatThrownBy(() -> new MiddlewareConfig(Strategy.THREAD_POOL, 2, 2, 5, false, true, 200, 0, 0, 0, 0, "ps", P, 1, 2))
                .hasMessageContaining("--cpus");
        assertThatThrownBy(() -> Strategy.parse("thread-per-servant")).hasMessageContaining("thread-per-servant");
    }

    @Test
    void durationsAndRatesParseWithUnitsAndRejectGarbage() {
        assertThat(Durations.parseMillis("5ms")).isEqualTo(5.0);
        assertThat(Durations.parseMillis("0.5ms")).isEqualTo(0.5);
        assertThat(Durations.parseMillis("200us")).isCloseTo(0.2, within(1e-12));
        assertThat(Durations.parseMillis("2s")).isEqualTo(2000.0);
        assertThat(Durations.parseRatePerMs("100/s")).isCloseTo(0.1, within(1e-12));
        assertThatThrownBy(() -> Durations.parseMillis("5")).hasMessageContaining("unit");
        assertThatThrownBy(() -> Durations.parseMillis("-1ms")).hasMessageContaining(">= 0");
        assertThatThrownBy(() -> Durations.parseRatePerMs("100/fortnight")).hasMessageContaining("fortnight");
    }

    @Test
    void moreCpusShortenResponseTimesUnderLoad() {
        // CPU-time servants: wall-clock ones would finish by their deadlines on one CPU as well.
        MiddlewareConfig one = closed(Strategy.THREAD_PER_CLIENT, 8, 5, false, true, "ps", 2).withServantClock("cpu");
        MiddlewareConfig two = new MiddlewareConfig(Strategy.THREAD_PER_CLIENT, 8, 8, 5, false, true, 200, 0, 0, 0, 2, "ps", P, 7, 2)
                .withServantClock("cpu");
        double r1 = MiddlewareModel.run(one).mean("response_time_ms");
        double r2 = MiddlewareModel.run(two).mean("response_time_ms");
        assertThat(r2).isLessThan(0.6 * r1);
    }

    private static double cpuPerRequestMs(SimulationResult r) {
        return r.mean("cpu_utilization") / r.mean("throughput_per_s") * 1000;
    }

    @Test
    void aWallClockServantCountsTimeSpentPreemptedAsServed() {
        CalibrationProfile det = P.with("network_delay", "deterministic");
        MiddlewareConfig one = new MiddlewareConfig(Strategy.THREAD_PER_CLIENT, 1, 1, 5, false, false, 100, 0, 0, 0, 1,
                "ps", det, 7, 2);
        // Alone on the CPU nothing preempts the servant: both clocks give the same response.
        assertThat(MiddlewareModel.run(one.withServantClock("wall")).mean("response_time_ms"))
                .isCloseTo(MiddlewareModel.run(one.withServantClock("cpu")).mean("response_time_ms"), within(1e-9));
        // Four clients sharing one CPU (processor sharing): a 5 ms wall-clock loop gets a share of
        // the CPU while its deadline runs, so it burns much less than 5 ms of CPU per request.
        MiddlewareConfig four = new MiddlewareConfig(Strategy.THREAD_PER_CLIENT, 4, 4, 5, false, false, 200, 0, 0, 0, 1,
                "ps", det, 7, 2);
        double cpu = cpuPerRequestMs(MiddlewareModel.run(four.withServantClock("cpu")));
        double wall = cpuPerRequestMs(MiddlewareModel.run(four.withServantClock("wall")));
        assertThat(cpu).isGreaterThan(5.0);
        assertThat(wall).isLessThan(0.6 * cpu);
    }

    @Test
    void exponentialNetworkDelaysKeepTheirMean() {
        MiddlewareConfig c = new MiddlewareConfig(Strategy.THREAD_PER_CLIENT, 1, 1, 0.5, false, false, 3000, 0, 0, 0, 1,
                "ps", P, 7, 4);
        SimulationResult exp = MiddlewareModel.run(c.withProfile(P.with("network_delay", "exponential")));
        SimulationResult det = MiddlewareModel.run(c.withProfile(P.with("network_delay", "deterministic")));
        assertThat(exp.mean("response_time_ms")).isCloseTo(det.mean("response_time_ms"), within(0.03));
        assertThat(exp.get("response_time_ms").ci95()).isGreaterThan(det.get("response_time_ms").ci95());
    }

    @Test
    void badProfileChoicesNameTheKeyAndTheValue() {
        MiddlewareConfig c = closed(Strategy.THREAD_PER_CLIENT, 1, 5, false, true, "ps", 1);
        assertThatThrownBy(() -> c.withServantClock("gpu")).hasMessageContaining("--servant-clock").hasMessageContaining("gpu");
        assertThatThrownBy(() -> MiddlewareModel.run(c.withProfile(P.with("network_delay", "gaussian"))))
                .hasMessageContaining("network_delay").hasMessageContaining("gaussian");
        assertThatThrownBy(() -> MiddlewareModel.run(c.withProfile(P.with("servant_cpu_clock", "sometimes"))))
                .hasMessageContaining("servant_cpu_clock").hasMessageContaining("sometimes");
    }
}
