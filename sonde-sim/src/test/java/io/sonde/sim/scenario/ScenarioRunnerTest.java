package io.sonde.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sonde.sim.model.SimulationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scenario files: the LWS example, a model with a closed form, and errors that name line and column. */
class ScenarioRunnerTest {

    private static final Path LWS = Path.of("../examples/lws.yaml");

    @TempDir
    Path dir;

    private static ScenarioRunner.Options opts(String variant, Double rate, Integer requests) {
        return new ScenarioRunner.Options(variant, rate, 5, 3, null, null, requests);
    }

    @Test
    void lwsScenarioAGivesClientPageAndImageTimes() {
        SimulationResult r = ScenarioRunner.run(ScenarioFile.read(LWS), opts("A", 5.0, 600));
        double page = r.mean("client_page_ms");
        double image = r.mean("client_image_ms");
        double total = r.mean("client_total_ms");
        // The session is the page, then the image: the two spans follow each other.
        assertThat(total).isCloseTo(page + image, within(0.03 * total));
        // A page needs at least the web server's CPU (21.07 ms, Table 6.2).
        assertThat(page).isGreaterThan(21.07);
        assertThat(r.mean("web_cpu_utilization")).isBetween(0.15, 0.45);
        assertThat(r.toJson()).contains("\"client_total_ms\":{\"mean\":").contains("\"client_page_ms\"").contains("\"client_image_ms\"");
    }

    @Test
    void lwsScenarioBAddsTheDatabaseDelays() {
        SimulationResult r = ScenarioRunner.run(ScenarioFile.read(LWS), opts("B", 1.0, 300));
        // 30 + 310 + 110 ms of deterministic delays sit on the page's path.
        assertThat(r.mean("client_page_ms")).isGreaterThan(450);
        assertThat(r.mean("location_ms")).isGreaterThan(310);
        assertThat(r.mean("weather_ms")).isGreaterThan(110);
    }

    @Test
    void anMm1ScenarioMatchesItsClosedForm() throws IOException {
        // One thread serving a FIFO queue under processor sharing (alone on its CPU): M/M/1 with
        // rho = 0.5 and mean service 1 ms, so the mean response time is 1 / (1 - 0.5) = 2 ms.
        Path f = write("mm1.yaml", """
                name: mm1
                machines: [{name: m, cpus: 1, scheduler: ps}]
                queues: [q]
                programs:
                  server:
                    - get: q
                    - cpu: exponential(1ms)
                    - reply:
                threads: [{name: s, machine: m, program: server}]
                arrivals: [{process: poisson, rate: 500, to: q, requests: 60000, response: response_time_ms}]
                """);
        SimulationResult r = ScenarioRunner.run(ScenarioFile.read(f),
                new ScenarioRunner.Options(null, null, 11, 4, null, null, null));
        assertThat(r.mean("response_time_ms")).isCloseTo(2.0, within(0.1));
        assertThat(r.mean("m_cpu_utilization")).isCloseTo(0.5, within(0.02));
    }

    @Test
    void jsonScenarioFilesWorkToo() throws IOException {
        Path f = write("d.json", """
                {"name": "d", "machines": [{"name": "m", "cpus": 1, "scheduler": "rr"}], "queues": ["q"],
                 "programs": {"server": [{"get": "q"}, {"cpu": "2ms"}, {"reply": null}]},
                 "threads": [{"name": "s", "machine": "m", "program": "server"}],
                 "arrivals": [{"process": "deterministic", "rate": 100, "to": "q", "requests": 200, "response": "r_ms"}]}
                """);
        SimulationResult r = ScenarioRunner.run(ScenarioFile.read(f), new ScenarioRunner.Options(null, null, 1, 2, null, null, null));
        assertThat(r.mean("r_ms")).isCloseTo(2.0, within(1e-6));
    }

    @Test
    void errorsNameLineAndColumn() throws IOException {
        String base = """
                name: bad
                machines: [{name: m, cpus: 1}]
                queues: [q]
                programs:
                  server:
                    - get: q
                    - cpu: exponential(1ms)
                    - reply:
                threads: [{name: s, machine: m, program: server}]
                arrivals: [{process: poisson, rate: 5, to: q, requests: 10}]
                """;
        expectError(base.replace("    - cpu: exponential(1ms)", "    - cpux: exponential(1ms)"), 7, "unknown step 'cpux'");
        expectError(base.replace("    - get: q", "    - get: qq"), 6, "unknown queue 'qq'");
        expectError(base.replace("exponential(1ms)", "exponential(1xs)"), 7, "1xs");
        expectError(base.replace("cpus: 1}", "cpus: 0}"), 2, "cpus must be between 1");
        expectError(base.replace("requests: 10}", "requests: 10, colour: red}"), 10, "unknown key 'colour'");
        expectError(base.replace("programs:", "programs: [a"), 5, "syntax error");
        expectError(base.replace("rate: 5", "rate: $rate"), 10, "unknown parameter $rate");
        expectError(base.replace("program: server}", "program: client}"), 9, "unknown program 'client'");
    }

    @Test
    void variantsAndArrivalRateAreChecked() {
        ScenarioFile lws = ScenarioFile.read(LWS);
        assertThatThrownBy(() -> ScenarioRunner.check(lws, opts(null, 5.0, null))).hasMessageContaining("--scenario");
        assertThatThrownBy(() -> ScenarioRunner.check(lws, opts("C", 5.0, null))).hasMessageContaining("no variant 'C'")
                .hasMessageContaining("lws.yaml:");
        assertThatThrownBy(() -> ScenarioRunner.check(lws, opts("A", -1.0, null))).hasMessageContaining("--arrival-rate");
    }

    /** The error names the file, the expected line and a column, and the problem. */
    private void expectError(String yaml, int line, String what) throws IOException {
        Path f = write("bad.yaml", yaml);
        assertThatThrownBy(() -> ScenarioRunner.check(ScenarioFile.read(f), new ScenarioRunner.Options(null, null, 1, 2, null, null, null)))
                .isInstanceOf(ScenarioException.class)
                .hasMessageMatching(".*bad\\.yaml:" + line + ":[1-9][0-9]*: .*")
                .hasMessageContaining(what);
    }

    private Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }
}
