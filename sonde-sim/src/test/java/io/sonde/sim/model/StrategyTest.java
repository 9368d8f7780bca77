package io.sonde.sim.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.sim.engine.Simulation;
import io.sonde.sim.profile.CalibrationProfile;
import org.junit.jupiter.api.Test;

/** Each strategy is simulated by its own server class, which decides which strategy-specific measures exist. */
class StrategyTest {
    private static final CalibrationProfile P = CalibrationProfile.defaultProfile();

    private static MiddlewareConfig cfg(Strategy s) {
        return new MiddlewareConfig(s, 2, 2, 1.0, false, true, 5, 0, 0, 0, 1, "linux24", P, 1, 1);
    }

    @Test
    void eachStrategyBuildsItsOwnServer() {
        assertThat(Strategy.THREAD_PER_CLIENT.server(new Simulation(1, 0), cfg(Strategy.THREAD_PER_CLIENT)))
                .isInstanceOf(ThreadPerClientServer.class);
        assertThat(Strategy.THREADED.server(new Simulation(1, 0), cfg(Strategy.THREADED))).isInstanceOf(ThreadedServer.class);
        assertThat(Strategy.THREAD_PER_REQUEST.server(new Simulation(1, 0), cfg(Strategy.THREAD_PER_REQUEST)))
                .isInstanceOf(ThreadPerRequestServer.class).isInstanceOf(DispatchingServer.class);
        assertThat(Strategy.THREAD_POOL.server(new Simulation(1, 0), cfg(Strategy.THREAD_POOL)))
                .isInstanceOf(ThreadPoolServer.class).isInstanceOf(DispatchingServer.class);
    }

    @Test
    void strategySpecificMeasuresAreReportedOnlyWhereTheyExist() {
        for (Strategy s : Strategy.values()) {
            assertThat(OrbServer.STRATEGY_MEASURES).containsAll(s.measures());
            SimulationResult r = MiddlewareModel.run(cfg(s));
            for (String key : MiddlewareModel.KEYS) {
                boolean expected = switch (key) {
                    case "dispatcher_queue_ms" -> s == Strategy.THREAD_POOL;
                    case "dispatcher_holding_ms", "dispatcher_phase1_ms" ->
                            s == Strategy.THREAD_POOL || s == Strategy.THREAD_PER_REQUEST;
                    case "mutex_contention_ms" -> s == Strategy.THREADED;
                    case "handover_ms" -> s == Strategy.THREAD_PER_REQUEST;
                    default -> true;
                };
                assertThat(r.get(key) != null).as(s + " " + key).isEqualTo(expected);
            }
        }
    }

    @Test
    void thePoolHasItsDispatchersAfterTheReceivers() {
        Simulation sim = new Simulation(1, 0);
        OrbServer server = Strategy.THREAD_POOL.server(sim, cfg(Strategy.THREAD_POOL).withPoolSize(3));
        assertThat(server.machine.threads()).extracting(Object::toString)
                .containsExactly("receiver-0", "receiver-1", "dispatcher-0", "dispatcher-1", "dispatcher-2");
    }
}
