package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.core.control.AgentState;
import io.sonde.core.control.LocalJvm;
import io.sonde.core.control.LoopbackConnector;
import io.sonde.format.Format;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sonde probes} and {@code sonde attach} against real JVMs running a small loop
 * application: switching probes off and on at run time, loading the agent into a running JVM,
 * and the errors users see.
 */
class AgentCommandsTest {

    private static final Path AGENT_JAR = AgentJvm.AGENT_JAR;
    private static final String APP = "io.sonde.cli.testapp.LoopApp";

    @TempDir
    Path dir;

    private AgentJvm process;

    @AfterEach
    void kill() {
        if (process != null) {
            process.close();
        }
    }

    private void start(String agentOptions) throws IOException, InterruptedException {
        assertThat(AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        process = AgentJvm.start(agentOptions, "target/test-classes", APP);
        awaitLine("ready");
    }

    private void awaitLine(String expected) throws InterruptedException {
        process.awaitLine(expected);
    }

    private void send(String line) throws IOException {
        process.send(line);
    }

    private void mark(int n) throws Exception {
        send("mark");
        awaitLine("marked " + n);
    }

    private void stop() throws Exception {
        send("stop");
        awaitLine("done");
        assertThat(process.awaitExit()).isZero();
    }

    /**
     * The target's properties once the attached agent's MBean, registered right after "done", is
     * (its pending mark gone; at most 30 s).
     */
    private static java.util.Properties awaitMBean(LocalJvm jvm) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        java.util.Properties p = jvm.systemProperties();
        while (p.getProperty(AgentState.MBEAN_PENDING_PROPERTY) != null && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            p = jvm.systemProperties();
        }
        assertThat(p.getProperty(AgentState.MBEAN_PENDING_PROPERTY)).as("MBean registered within 30 s").isNull();
        return p;
    }

    /** Runs the CLI in-process; returns {exit code, stdout, stderr}. */
    private static Object[] sonde(String... args) {
        return CliRun.run(args);
    }

    private static List<String> lines(Object s) {
        return Arrays.asList(((String) s).split("\\R"));
    }

    /** Methods entered on the loop's main thread between consecutive marks. */
    static List<List<String>> betweenMarks(Path logDir) throws IOException {
        List<List<String>> segments = new ArrayList<>();
        segments.add(new ArrayList<>());
        try (SondeReader r = SondeLogs.scan(logDir).get(0).open()) {
            while (r.next()) {
                if (r.type() != Format.ENTER || !"main".equals(r.threadName())) {
                    continue;
                }
                String method = r.probeName().substring(r.probeName().lastIndexOf('.') + 1);
                if (method.equals("mark")) {
                    segments.add(new ArrayList<>());
                } else {
                    segments.get(segments.size() - 1).add(method);
                }
            }
        }
        return segments;
    }

    @Test
    void probesListsAndSwitchesProbesOfARunningJvm() throws Exception {
        start("include=" + APP + "$Ticker.*,file.dir=" + dir + ",flush.interval.ms=20");
        String pid = Long.toString(process.pid());
        mark(1);

        Object[] list = sonde("probes", "--pid", pid, "list");
        assertThat(list[0]).as("stderr: %s", list[2]).isEqualTo(0);
        assertThat(lines(list[1])).hasSize(2).anyMatch(l -> l.matches("on  \\d+ " + java.util.regex.Pattern.quote(APP + "$Ticker.tick") + " \\(\\)V"));

        Object[] off = sonde("probes", "--pid", pid, "disable", "*.tick");
        assertThat(off[0]).as("stderr: %s", off[2]).isEqualTo(0);
        assertThat((String) off[1]).startsWith("disabled 1 probe(s) matching *.tick");
        assertThat(lines(sonde("probes", "--pid", pid, "list", "*tick")[1])).singleElement().asString().startsWith("off ");
        Thread.sleep(1000); // in effect within one second
        mark(2);
        Thread.sleep(200);
        mark(3);

        Object[] on = sonde("probes", "--pid", pid, "enable", "*.tick");
        assertThat((String) on[1]).startsWith("enabled 1 probe(s)");
        Thread.sleep(1000);
        mark(4);
        Thread.sleep(200);
        mark(5);

        Object[] status = sonde("probes", "--pid", pid, "status");
        assertThat(status[0]).isEqualTo(0);
        assertThat(lines(status[1])).anyMatch(l -> l.startsWith("status: monitoring"))
                .anyMatch(l -> l.equals("probes: 2 (2 on), classes instrumented: 1"))
                .anyMatch(l -> l.startsWith("records.produced="));
        stop();

        List<List<String>> between = betweenMarks(dir);
        assertThat(between.get(0)).contains("tick");
        assertThat(between.get(2)).as("between marks 2 and 3: switched off").isEmpty();
        assertThat(between.get(4)).as("between marks 4 and 5: on again").contains("tick");
    }

    @Test
    void attachLoadsTheAgentIntoARunningJvm() throws Exception {
        start(null);
        mark(1);
        String pid = Long.toString(process.pid());
        String[] attach = {"attach", "--pid", pid, "--agent", AGENT_JAR.toString(),
                "include=" + APP + "$Ticker.*", "file.dir=" + dir, "flush.interval.ms=20"};
        Object[] r = sonde(attach);
        assertThat(r[0]).as("stdout %s stderr %s", r[1], r[2]).isEqualTo(0);
        assertThat(lines(r[1])).anyMatch(l -> l.startsWith("woven: ") && l.contains(" loaded class(es) re-transformed"));
        // no "compiler" phase: the command added the weaver's compiler directive itself; no "mbean": the
        // MBean is registered after "done"
        assertThat(lines(r[1])).as("the agent's phases").anyMatch(l -> l.startsWith("where the time went: jar ")
                && l.contains(", retransform ") && l.contains(", executors ") && !l.contains("compiler ")
                && !l.contains("mbean "));
        try (LocalJvm jvm = LocalJvm.attach(process.pid())) {
            assertThat(jvm.diagnosticCommand("Compiler.directives_print")).as("the weaver's directive removed")
                    .contains("Directive: (default)").doesNotContain("io/sonde/agent/instrument/*.*");
        }
        assertThat(lines(r[1])).contains("status: monitoring 1 method rule(s) from attach options, loaded by attach");
        assertThat(lines(r[1])).as("start.* counters in the status").anyMatch(l -> l.startsWith("start.total.ms="));
        mark(2);
        Thread.sleep(200);
        mark(3);

        // the same attach again: nothing to do
        Object[] same = sonde(attach);
        assertThat(same[0]).as("stdout %s stderr %s", same[1], same[2]).isEqualTo(0);
        assertThat(lines(same[1])).contains("the Sonde agent already runs in process " + pid
                + " with these options (loaded by attach)");

        // other options: refused, told to the person who ran the command
        Object[] other = sonde("attach", "--pid", pid, "--agent", AGENT_JAR.toString(), "include=x.*");
        assertThat(other[0]).isEqualTo(1);
        assertThat((String) other[2]).contains("process " + pid + " already runs the Sonde agent (loaded by attach with "
                + "options 'include=" + APP + "$Ticker.*,file.dir=")
                .contains("'include=x.*' were not applied")
                .contains("sonde probes --pid " + pid);

        // the status names where the probe states came from: attach options, then a switch over JMX
        assertThat(sonde("probes", "--pid", pid, "disable", "*.nothing")[0]).isEqualTo(0);
        Object[] status = sonde("probes", "--pid", pid, "status");
        assertThat(lines(status[1])).contains("status: monitoring 1 method rule(s) from attach options, loaded by attach; "
                + "1 switch(es) over JMX, last: disable *.nothing (0 probe(s) changed)");
        stop();

        List<List<String>> between = betweenMarks(dir);
        assertThat(between).hasSize(3);
        assertThat(between.get(1)).contains("tick");
    }

    @Test
    void attachReportsBadOptions() throws Exception {
        start(null);
        Object[] r = sonde("attach", "--pid", Long.toString(process.pid()), "--agent", AGENT_JAR.toString(),
                "include=" + APP + "*", "policy=sometimes");
        assertThat(r[0]).isEqualTo(1);
        assertThat(lines(r[1])).contains("status: not monitoring: bad options",
                "error: attach options entry 2: bad value 'sometimes' for key 'policy': must be one of block, drop, block-forever");
        // bad options leave the JVM free for a corrected attach
        Object[] fixed = sonde("attach", "--pid", Long.toString(process.pid()), "--agent", AGENT_JAR.toString(),
                "include=" + APP + "*", "policy=drop", "file.dir=" + dir);
        assertThat(fixed[0]).as("stdout %s stderr %s", fixed[1], fixed[2]).isEqualTo(0);
        assertThat(lines(fixed[1])).contains("status: monitoring 1 method rule(s) from attach options, loaded by attach");
        stop(); // the application carries on
    }

    /**
     * {@code sonde attach} prints the status the agent published when its weaving was done: the
     * full status even with {@code jmx=off} (no MBean to ask), and with {@code jmx=on} no JMX
     * connection opened (the agent's loopback connector, started by a client's request, is not).
     */
    @Test
    void attachPrintsTheStatusWithoutJmx() throws Exception {
        start(null);
        String pid = Long.toString(process.pid());
        Object[] off = sonde("attach", "--pid", pid, "--agent", AGENT_JAR.toString(),
                "include=" + APP + "$Ticker.*", "jmx=off", "writer=discard");
        assertThat(off[0]).as("stdout %s stderr %s", off[1], off[2]).isEqualTo(0);
        assertThat(lines(off[1])).contains("status: monitoring 1 method rule(s) from attach options, loaded by attach",
                        "probes: 2 (2 on), classes instrumented: 1")
                .anyMatch(l -> l.startsWith("records.produced="))
                .anyMatch(l -> l.startsWith("start.total.ms="))
                .noneMatch(l -> l.startsWith("error: "))
                .noneMatch(l -> l.contains("JMX MBean is switched off"));
        stop();

        start(null);
        pid = Long.toString(process.pid());
        Object[] on = sonde("attach", "--pid", pid, "--agent", AGENT_JAR.toString(),
                "include=" + APP + "$Ticker.*", "writer=discard");
        assertThat(on[0]).as("stdout %s stderr %s", on[1], on[2]).isEqualTo(0);
        assertThat(lines(on[1])).contains("status: monitoring 1 method rule(s) from attach options, loaded by attach",
                "probes: 2 (2 on), classes instrumented: 1");
        try (LocalJvm jvm = LocalJvm.attach(process.pid())) {
            java.util.Properties target = awaitMBean(jvm); // registered right after "done"
            assertThat(target.getProperty(LoopbackConnector.AGENT_PROPERTY)).as("the MBean is registered").isNotNull();
            assertThat(target.getProperty(LoopbackConnector.URL_PROPERTY)).as("no JMX connector started").isNull();
        }
        stop();
    }

    /**
     * The attach started before picocli parses adds the weaver's directive; a command line that then
     * fails without taking it (here: the agent jar missing) removes the directive before it returns.
     */
    @Test
    void anEarlyAttachNobodyTookLeavesNoDirective() throws Exception {
        start(null);
        String pid = Long.toString(process.pid());
        try (LocalJvm jvm = LocalJvm.attach(process.pid())) {
            // the directive added by the early attach alone: wait for it (at most 30 s), then end it untaken
            EarlyAttach early = EarlyAttach.startFor("attach", "--pid", pid);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!jvm.diagnosticCommand("Compiler.directives_print").contains("io/sonde/agent/instrument/*.*")) {
                assertThat(System.nanoTime() - deadline).as("the early attach's directive within 30 s").isNegative();
                Thread.sleep(10);
            }
            early.closeIfUntaken();
            assertThat(jvm.diagnosticCommand("Compiler.directives_print")).as("removed before closeIfUntaken returned")
                    .doesNotContain("io/sonde/agent/instrument/*.*");

            // the same through the command line: it fails before it attaches, and leaves nothing behind
            Object[] r = sonde("attach", "--pid", pid, "--agent", dir.resolve("missing.jar").toString(), "include=x.*");
            assertThat(r[0]).isEqualTo(1);
            assertThat((String) r[2]).contains("--agent " + dir.resolve("missing.jar") + ": no such file");
            assertThat(jvm.diagnosticCommand("Compiler.directives_print")).doesNotContain("io/sonde/agent/instrument/*.*");
        }
        stop();
    }

    /** Option errors: exit code 1 with the errors, from the published status, also with {@code jmx=off}. */
    @Test
    void attachReportsBadOptionsWithoutJmx() throws Exception {
        start(null);
        Object[] r = sonde("attach", "--pid", Long.toString(process.pid()), "--agent", AGENT_JAR.toString(),
                "include=" + APP + "*", "jmx=off", "policy=sometimes");
        assertThat(r[0]).as("stdout %s stderr %s", r[1], r[2]).isEqualTo(1);
        assertThat(lines(r[1])).contains("status: not monitoring: bad options",
                "error: attach options entry 3: bad value 'sometimes' for key 'policy': must be one of block, drop, block-forever");
        stop(); // the application carries on
    }

    @Test
    void errorsNameTheProblem() throws Exception {
        Object[] self = sonde("probes", "--pid", Long.toString(ProcessHandle.current().pid()), "list");
        assertThat(self[0]).isEqualTo(1);
        assertThat((String) self[2]).contains("is this sonde process itself");

        // usage errors (exit code 2): the actions are sub-commands of probes
        Object[] badAction = sonde("probes", "--pid", "1", "flip");
        assertThat(badAction[0]).isEqualTo(2);
        assertThat((String) badAction[2]).contains("unknown command 'flip': use list, enable, disable, status");

        Object[] noPattern = sonde("probes", "--pid", "1", "enable");
        assertThat(noPattern[0]).isEqualTo(2);
        assertThat((String) noPattern[2]).startsWith("sonde probes enable: Missing required parameter: 'PATTERN'");

        Object[] noAction = sonde("probes", "--pid", "1");
        assertThat(noAction[0]).isEqualTo(2);
        assertThat((String) noAction[2]).contains("give an action: list, enable, disable or status");

        start(null); // a JVM without the agent
        Object[] none = sonde("probes", "--pid", Long.toString(process.pid()), "list");
        assertThat(none[0]).isEqualTo(1);
        assertThat((String) none[2]).contains("runs no Sonde agent").contains("sonde attach").doesNotContain("\tat ");

        Object[] badOption = sonde("attach", "--pid", Long.toString(process.pid()), "--agent", AGENT_JAR.toString(), "include");
        assertThat((String) badOption[2]).contains("option 'include' is not KEY=VALUE");
        Object[] noJar = sonde("attach", "--pid", Long.toString(process.pid()), "--agent", dir.resolve("missing.jar").toString());
        assertThat((String) noJar[2]).contains("missing.jar: no such file");
        stop();
    }
}
