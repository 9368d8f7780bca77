package io.sonde.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.sim.cpu.SchedulerKind;
import io.sonde.sim.cpu.SchedulerSpec;
import io.sonde.sim.scenario.ScenarioSpec.MachineSpec;
import io.sonde.sim.scenario.ScenarioSpec.ProgramSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenario file becomes an immutable, complete spec before anything runs; bad blocks are named. */
class ScenarioParserTest {

    private static final Path LWS = Path.of("../examples/lws.yaml");

    private static final String BASE = """
            name: small
            machines: [{name: m, cpus: 1}]
            queues: [q]
            links: [{name: l, latency: 1ms, to: q}]
            programs:
              server:
                - get: q
                - mark: start
                - cpu: exponential(1ms)
                - record: {measure: service_ms, since: start}
                - reply:
            threads: [{name: s, machine: m, program: server, count: 2}]
            arrivals: [{process: poisson, rate: 5, to: l, requests: 10, response: response_ms}]
            """;

    private static ScenarioRunner.Options opts(String variant, Double rate, Integer cpus, String scheduler, Integer requests) {
        return new ScenarioRunner.Options(variant, rate, 1, 1, cpus, scheduler, requests);
    }

    private static ScenarioSpec parse(String yaml) {
        return ScenarioParser.parse(ScenarioFile.parse("t.yaml", yaml, false), opts(null, null, null, null, null));
    }

    @Test
    void theSpecHoldsEveryBlockWithNamesResolvedAndOverridesApplied() {
        ScenarioSpec s = ScenarioParser.parse(ScenarioFile.read(LWS), opts("B", 7.0, 2, "rr:5ms", 99));
        assertThat(s.title()).isEqualTo("lws");
        assertThat(s.variant()).isEqualTo("B");
        assertThat(s.arrivalRate()).isEqualTo("7.0");
        assertThat(s.machines()).extracting(MachineSpec::name).containsExactly("client", "web", "middleware");
        assertThat(s.machines()).allSatisfy(m -> {
            assertThat(m.cpus()).isEqualTo(2);
            assertThat(m.scheduler()).isEqualTo(new SchedulerSpec(SchedulerKind.ROUND_ROBIN, 5, 6));
        });
        assertThat(s.queues()).hasSize(8).startsWith("sessions", "web_accept");
        assertThat(s.links()).extracting(ScenarioSpec.LinkSpec::to).containsExactly("web_accept", "location_in", "weather_in");
        assertThat(s.programs()).extracting(ProgramSpec::name).startsWith("browser", "acceptor", "http");
        assertThat(s.programs()).allSatisfy(p -> assertThat(p.loop()).isTrue());
        assertThat(s.threads()).hasSize(8);
        assertThat(s.threads().get(0).count()).isEqualTo(200);
        assertThat(s.arrivals()).singleElement().satisfies(a -> {
            assertThat(a.poisson()).isTrue();
            assertThat(a.ratePerSecond()).isEqualTo(7.0);
            assertThat(a.requests()).isEqualTo(99);
            assertThat(a.type()).isEqualTo(s.requestTypes().indexOf("page"));
        });
        assertThat(s.requestTypes()).containsExactly("page", "image");
        assertThat(s.measures()).startsWith("client_total_ms", "client_page_ms", "client_image_ms");
        // Variant B's database delay, substituted and parsed.
        List<StepSpec> servlet = s.program("servlet").steps();
        assertThat(servlet.get(2)).isInstanceOfSatisfying(StepSpec.Delay.class,
                d -> assertThat(d.delay().mean()).isEqualTo(30.0));
        StepSpec.ByType byType = (StepSpec.ByType) s.program("http").steps().get(2);
        assertThat(byType.cases()).extracting(StepSpec.ByType.Case::type).containsExactly("page", "image");
        assertThat(byType.cases().get(0).steps().get(1)).isEqualTo(new StepSpec.Call("servlet_pool"));
    }

    @Test
    void theSpecIsImmutable() {
        ScenarioSpec s = parse(BASE);
        assertThatThrownBy(() -> s.machines().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.program("server").steps().add(new StepSpec.Reply()))
                .isInstanceOf(UnsupportedOperationException.class);
        java.util.ArrayList<String> queues = new java.util.ArrayList<>(List.of("a"));
        ScenarioSpec copy = new ScenarioSpec("t", null, null, 0, List.of(), queues, List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of());
        queues.add("b");
        assertThat(copy.queues()).containsExactly("a");
    }

    @Test
    void stampsAndMeasuresAreNumberedInOrderOfUse() {
        ScenarioSpec s = parse(BASE);
        assertThat(s.program("server").steps()).containsExactly(new StepSpec.Get("q"), new StepSpec.Mark("start", 0),
                s.program("server").steps().get(2), new StepSpec.Record("service_ms", "start", 0), new StepSpec.Reply());
        assertThat(s.measures()).containsExactly("service_ms", "response_ms");
        assertThat(s.arrivals().get(0).to()).isEqualTo("l");
        assertThat(s.arrivals().get(0).type()).isEqualTo(-1);
    }

    @Test
    void aMalformedBlockIsNamedWithItsPlace() {
        assertError(BASE.replace("{measure: service_ms, since: start}", "{measure: service_ms}"),
                "t.yaml:10:", "record needs 'since'");
        assertError(BASE.replace("[{name: m, cpus: 1}]", "[{name: m}]"), "t.yaml:2:", "machine m needs 'cpus'");
        assertError(BASE.replace("latency: 1ms", "latency: soon"), "t.yaml:4:", "soon");
        assertError(BASE.replace("scheduler", "x").replace("cpus: 1}", "cpus: 1, scheduler: cfs}"), "t.yaml:2:",
                "unknown scheduler 'cfs'");
        assertError(BASE.replace("process: poisson", "process: bursty"), "t.yaml:13:", "process must be poisson or deterministic");
    }

    @Test
    void cyclesAreFoundBeforeAnythingRuns() {
        assertError(BASE.replace("links: [{name: l, latency: 1ms, to: q}]",
                "links: [{name: l, latency: 1ms, to: k}, {name: k, latency: 1ms, to: l}]"), "t.yaml:4:", "links form a cycle: l -> k");
        assertError(BASE.replace("    - reply:\n", "    - reply:\n  helper:\n    - run: server\n").replace("    - mark: start\n",
                "    - mark: start\n    - run: helper\n"), "t.yaml:7:", "program 'server' runs itself (cycle: server -> helper -> server)");
    }

    private static void assertError(String yaml, String where, String what) {
        assertThatThrownBy(() -> parse(yaml)).isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith(where).hasMessageContaining(what);
    }
}
