package io.sonde.core.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package structure of sonde-core, as docs/architecture.md draws it: which package may use
 * which, no package of the core proper using the API, and no cycles. Data flows probe -> buffer ->
 * pipeline (writer thread) -> writer; dependencies point from the assembling pipeline down to the
 * parts it drives, and each lower part declares what it needs from above as an interface of its
 * own (buffer.RingHost, probe.ProbeHost, pipeline.WriterLoop.Source, writer.WriterContext).
 */
class PackageDependenciesTest {
    /** Per package: the other Sonde packages its main classes may use (besides itself and the JDK). */
    static final Map<String, List<String>> ALLOWED = new LinkedHashMap<>();

    static {
        // io.sonde.core.live: Sonde.live() creates the process-wide live tree (its API is io.sonde.api.live).
        ALLOWED.put("io.sonde.api", List.of("io.sonde.core.pipeline", "io.sonde.core.probe", "io.sonde.core.buffer",
                "io.sonde.core.config", "io.sonde.format", "io.sonde.api.live", "io.sonde.core.live", "io.sonde.core.prometheus"));
        ALLOWED.put("io.sonde.api.internal", List.of("io.sonde.api", "io.sonde.core.pipeline", "io.sonde.core.config"));
        // format.compress: compress=lz4 turns DATA frames into COMPRESSED ones on the writer thread.
        ALLOWED.put("io.sonde.core.pipeline", List.of("io.sonde.core.probe", "io.sonde.core.buffer",
                "io.sonde.core.writer", "io.sonde.core.config", "io.sonde.core.log", "io.sonde.format",
                "io.sonde.format.write", "io.sonde.format.compress", "io.sonde.core.pipeline.packing", "io.sonde.core.prometheus"));
        // The Prometheus text format, per-operation statistics and the minimal HTTP endpoint (plain sockets).
        ALLOWED.put("io.sonde.core.prometheus", List.of());
        // The writer thread's packing decisions (degree, hill climbing, wait bound): plain arithmetic.
        ALLOWED.put("io.sonde.core.pipeline.packing", List.of());
        ALLOWED.put("io.sonde.core.probe", List.of("io.sonde.core.buffer"));
        ALLOWED.put("io.sonde.core.buffer", List.of("io.sonde.format"));
        // format.read: the text writer renders frames with the reader's RecordCursor and RecordText;
        // format.stream: the acknowledged tcp writer's HELLO/ACCEPT/ACK codec, the token file and TLS sockets;
        // javax.net.ssl: the tcp writer's TLS (tcp.tls=on).
        ALLOWED.put("io.sonde.core.writer",
                List.of("io.sonde.core.config", "io.sonde.core.log", "io.sonde.format", "io.sonde.format.write",
                        "io.sonde.format.read", "io.sonde.format.stream", "javax.net.ssl.."));
        ALLOWED.put("io.sonde.core.config", List.of());
        ALLOWED.put("io.sonde.core.log", List.of());
        // The JMX control client and its MBean interface: used by the agent, the CLI and the bench,
        // never by the recording path.
        ALLOWED.put("io.sonde.core.control",
                List.of("javax.management..", "javax.security.auth..", "com.sun.tools.attach.."));
        // The live layer: API (interfaces and value types) apart from its implementation, which
        // implements it (as OpenTelemetry's SDK its API): the only arrow from io.sonde.core.. to the API.
        // javax.management: LiveTree.bridgeJmx names the MBean server and the ObjectName pattern;
        // format.stream: ObserveService.tokenFromFile is the token-file check shared with the collector (TokenFile).
        ALLOWED.put("io.sonde.api.live", List.of("javax.management..", "io.sonde.format.stream"));
        ALLOWED.put("io.sonde.core.live", List.of("io.sonde.api.live", "io.sonde.core.live.mib",
                "io.sonde.core.live.session", "io.sonde.core.live.probe", "io.sonde.core.live.observe",
                "io.sonde.core.live.jmx", "javax.management..",
                // PrometheusStartup: the agent's endpoint over the pipeline's counters and the live tree
                "io.sonde.core.pipeline", "io.sonde.core.config", "io.sonde.core.prometheus", "io.sonde.format"));
        // The JMX bridge: MBeans as objects of the tree, sampled like the probes.
        ALLOWED.put("io.sonde.core.live.jmx", List.of("io.sonde.api.live", "io.sonde.core.live.mib",
                "javax.management.."));
        // The observe endpoint: the protocol codec of sonde-format (shared with the observer client)
        // over the live API; it drives sessions only through LiveTree and ObserverSession; javax.net.ssl: TLS;
        // format.read: a RELAY opening hands the observer's checked frames (FrameInput) to the relay (the collector's).
        ALLOWED.put("io.sonde.core.live.observe", List.of("io.sonde.api.live", "io.sonde.format.observe",
                "io.sonde.format.write", "io.sonde.format.read", "javax.net.ssl.."));
        ALLOWED.put("io.sonde.core.live.mib", List.of("io.sonde.api.live"));
        ALLOWED.put("io.sonde.core.live.session", List.of("io.sonde.api.live", "io.sonde.core.live.mib"));
        ALLOWED.put("io.sonde.core.live.probe", List.of("io.sonde.core.live.mib"));
    }

    static JavaClasses core;

    @BeforeAll
    static void importMainClasses() {
        core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.sonde.api", "io.sonde.core");
    }

    @Test
    void everyPackageUsesOnlyWhatItIsAllowedTo() {
        for (Map.Entry<String, List<String>> e : ALLOWED.entrySet()) {
            List<String> allowed = new ArrayList<>(e.getValue());
            allowed.add(e.getKey());
            allowed.add("java..");
            allowed.add("com.sun.management.."); // ThreadMXBean's CPU time (probe)
            classes().that().resideInAPackage(e.getKey())
                    .should().onlyDependOnClassesThat().resideInAnyPackage(allowed.toArray(new String[0]))
                    .because(e.getKey() + " may use only " + e.getValue())
                    .check(core);
        }
    }

    @Test
    void everyPackageOfTheCoreHasARule() {
        classes().should().resideInAnyPackage(ALLOWED.keySet().toArray(new String[0]))
                .because("a new package needs its place in ALLOWED and in docs/architecture.md")
                .check(core);
    }

    @Test
    void theCoreProperNeverUsesTheApi() {
        noClasses().that().resideInAPackage("io.sonde.core..").and().resideOutsideOfPackage("io.sonde.core.live..")
                .should().dependOnClassesThat().resideInAPackage("io.sonde.api..")
                .check(core);
    }

    @Test
    void theLiveImplementationUsesOnlyTheLiveApi() {
        noClasses().that().resideInAPackage("io.sonde.core.live..")
                .should().dependOnClassesThat().resideInAnyPackage("io.sonde.api", "io.sonde.api.internal")
                .because("the live implementation implements io.sonde.api.live and nothing else of the API")
                .check(core);
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("io.sonde.(**)").should().beFreeOfCycles().check(core);
    }
}
