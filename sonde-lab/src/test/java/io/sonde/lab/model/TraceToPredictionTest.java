package io.sonde.lab.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.lab.load.ServantSpec;
import io.sonde.lab.server.ServerStrategy;
import io.sonde.lab.sweep.Sweep;
import io.sonde.lab.sweep.SweepPoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop in one test: a real thread-pool server runs under the Sonde agent at 1 and 2
 * clients (and without it at the same counts, for the CPU outside the stages and the one-client
 * response time), its trace becomes service demands, the model predicts 8 clients (a load the
 * calibration never saw: the pool of 2 is then saturated and requests queue for it), and a server
 * without the agent is measured at 8 clients.
 *
 * <p>The bound is 25 %: at 8 clients the response time is mostly the wait for one of the two
 * dispatchers, each holding a request for its 10 ms sleep (about 40 ms in all), which the model
 * must get from the pool size and the traced servant time; the machine's other load (parallel
 * builds) moves the CPU parts and the sleeps' wake-ups by a few ms, so a tighter bound would fail
 * on a busy machine, while a model that missed the queueing (predicting the 1-client ~11 ms)
 * is off by about 70 % and fails.
 */
class TraceToPredictionTest {
    private static final Path AGENT_JAR = Path.of(System.getProperty("test.sonde.agent.jar", "../sonde-agent/target/sonde-agent.jar"));

    @Test
    void demandsFromALowLoadTracePredictTheSaturatedPool(@TempDir Path dir) throws Exception {
        assertThat(AGENT_JAR).exists();
        ServantSpec servant = new ServantSpec(true, 10_000_000, true);
        String cp = System.getProperty("java.class.path");
        Calibration cal = Calibration.run(ServerStrategy.THREAD_POOL, 2, servant, List.of(1, 2), 150, Duration.ofSeconds(60),
                cp, AGENT_JAR, dir, 1, 4, p -> { });
        assertThat(Files.readString(cal.demandsFile())).contains("\"schema\" : \"sonde-demands/1\"");
        StageDemands d = cal.model().demands();
        assertThat(d.requests()).isGreaterThanOrEqualTo(300);
        assertThat(d.servantWallMs()).isBetween(8.5, 15.0);       // exponential mean 10 ms (+ wake-up), 400+ samples
        assertThat(d.enqueueCpuMs()).isGreaterThan(0).isLessThan(1);
        assertThat(d.receiveCpuMs()).isGreaterThan(0).isLessThan(1);

        double predicted = cal.model().predict(8, 1, 4).responseMs();
        List<SweepPoint> measured = new Sweep(ServerStrategy.THREAD_POOL, 2, servant, List.of(8), 300, Duration.ofSeconds(60), 0, 7)
                .run(cp, null, null, p -> { });
        double m = measured.get(0).meanMs();
        System.out.printf("TraceToPredictionTest: 8 clients, pool 2, 10 ms sleep: measured %.2f ms, predicted %.2f ms (%s)%n",
                m, predicted, cal.model().parameters());
        assertThat(Math.abs(predicted - m) / m).isLessThan(0.25);
    }
}
