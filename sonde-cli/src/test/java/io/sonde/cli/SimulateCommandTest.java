package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde simulate} and {@code sonde validate-model} through the real command line. */
class SimulateCommandTest {

    @TempDir
    Path dir;

    static Object[] run(String... args) {
        return CliRun.run(args);
    }

    @Test
    void middlewareJsonHasEveryDocumentedKey() {
        Object[] r = run("simulate", "middleware", "--strategy", "thread-pool", "--clients", "4", "--pool-size", "4",
                "--servant-cpu", "5ms", "--distribution", "exponential", "--requests-per-client", "100",
                "--scheduler", "linux24", "--seed", "3", "--replications", "2", "--json");
        assertThat(r[0]).isEqualTo(0);
        String json = ((String) r[1]).strip();
        assertThat(json).startsWith("{").endsWith("}").doesNotContain("\n");
        for (String k : new String[] {"response_time_ms", "receiver_queue_ms", "dispatcher_queue_ms", "receiver_holding_ms",
                "dispatcher_holding_ms", "receiver_phase1_ms", "dispatcher_phase1_ms", "mutex_contention_ms", "handover_ms",
                "throughput_per_s", "cpu_utilization", "events_per_s"}) {
            assertThat(json).contains("\"" + k + "\":");
        }
        assertThat(json).contains("\"mutex_contention_ms\":null").contains("\"handover_ms\":null");
    }

    @Test
    void openArrivalsAndATableWithoutJson() {
        Object[] r = run("simulate", "middleware", "--strategy", "thread-per-request", "--arrivals", "poisson:50/s",
                "--requests", "500", "--connections", "2", "--servant-delay", "20ms", "--distribution", "deterministic",
                "--scheduler", "ps", "--replications", "2");
        assertThat(r[0]).isEqualTo(0);
        assertThat((String) r[1]).contains("handover_ms").contains("thread-per-request").contains("±95% CI");
    }

    @Test
    void servantClockOverridesTheProfile() {
        String[] common = {"simulate", "middleware", "--strategy", "thread-per-client", "--clients", "8",
            "--servant-cpu", "5ms", "--requests-per-client", "100", "--replications", "2", "--json"};
        Object[] cpu = run(concat(common, "--servant-clock", "cpu"));
        Object[] wall = run(concat(common, "--servant-clock", "WALL"));
        assertThat(cpu[0]).isEqualTo(0);
        assertThat(wall[0]).isEqualTo(0);
        assertThat((String) cpu[1]).contains("\"servant_clock\":\"cpu\"");
        assertThat((String) wall[1]).contains("\"servant_clock\":\"wall\"");
        // Eight threads preempt each other: wall-clock servants finish sooner than CPU-time ones.
        assertThat(responseMs((String) wall[1])).isLessThan(responseMs((String) cpu[1]));
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static double responseMs(String json) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"response_time_ms\":\\{\"mean\":([0-9.eE+-]+)").matcher(json);
        assertThat(m.find()).as(json).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void badOptionsAreNamed() {
        assertError(run("simulate", "middleware", "--strategy", "pool", "--clients", "2", "--servant-cpu", "5ms"), "--strategy");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--clients", "2", "--servant-cpu", "5"), "--servant-cpu");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--clients", "2"), "--servant-cpu");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--clients", "2", "--servant-cpu", "5ms",
                "--distribution", "normal"), "--distribution");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--clients", "2", "--servant-cpu", "5ms",
                "--scheduler", "cfs"), "--scheduler");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--arrivals", "uniform:5/s", "--servant-cpu", "5ms"),
                "--arrivals");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--clients", "2", "--pool-size", "3",
                "--servant-cpu", "5ms"), "--pool-size");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--clients", "2", "--servant-cpu", "5ms",
                "--profile", "nonexistent"), "--profile");
        assertError(run("simulate", "nothing-here.yaml"), "nothing-here.yaml");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--clients", "2", "--servant-cpu", "5ms",
                "--servant-clock", "gpu"), "--servant-clock");
        assertError(run("simulate", "middleware", "--strategy", "threaded", "--clients", "2", "--servant-delay", "5ms",
                "--servant-clock", "wall"), "--servant-clock");
    }

    @Test
    void scenarioFileRunsAndItsErrorsNameTheLine() throws Exception {
        Object[] r = run("simulate", "../examples/lws.yaml", "--scenario", "A", "--arrival-rate", "5", "--requests", "300",
                "--replications", "2", "--json");
        assertThat(r[0]).as((String) r[2]).isEqualTo(0);
        assertThat((String) r[1]).contains("\"client_total_ms\":{").contains("\"client_page_ms\":{").contains("\"client_image_ms\":{");

        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "name: x\nmachines:\n  - {name: m, cpus: two}\n");
        Object[] e = run("simulate", bad.toString());
        assertThat(e[0]).isEqualTo(1);
        assertThat((String) e[2]).contains("bad.yaml:3:").contains("cpus must be a number").doesNotContain("Exception");
    }

    private static void assertError(Object[] r, String mention) {
        assertThat(r[0]).as("exit code").isNotEqualTo(0);
        assertThat((String) r[2]).contains(mention).doesNotContain("\tat ");
    }
}
