package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.it.Executions.Exec;
import io.sonde.agent.testing.AgentJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trace context across every common hand-off, in real JVMs under the agent running
 * {@link io.sonde.agent.sample.HandoffApp}: each piece of work handed over inside a request is a
 * child trace naming the request's trace and the order index of {@code submitAll} (2), three
 * requests each with their own children; the same hand-offs from outside any trace start roots.
 */
class PropagationIT {

    private static final String APP = "io.sonde.agent.sample.HandoffApp";
    private static final String OPTIONS = "exclude=" + APP + ".*;*$Orphan.*,include=" + APP + "*"; // not the scenarios
    private static final Path JDK25 = Path.of(System.getProperty("sonde.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64"));

    @TempDir
    Path dir;

    private Executions run(Path javaHome, String options, String scenario) throws Exception {
        try (AgentJvm p = AgentJvm.start(javaHome, options + ",file.dir=" + dir, AgentProcess.TEST_CLASSES, APP, scenario)) {
            p.awaitLine("done");
            assertThat(p.awaitExit()).as("exit code; stderr: %s", p.stderr()).isZero();
            assertThat(p.stderr()).as("stderr").doesNotContain("Exception", "WARNING", "sonde-agent:");
        }
        Recorded r = Recorded.read(dir);
        assertThat(r.trailer.written()).isEqualTo(r.trailer.produced());
        return new Executions(r);
    }

    private Executions run(String scenario) throws Exception {
        return run(Path.of(System.getProperty("java.home")), OPTIONS, scenario);
    }

    /**
     * Every execution of {@code Work.<method>} is a trace root on another thread than main whose
     * parent is {@code submitAll} of a request, and each request has {@code perRequest} of them;
     * every {@code OrphanWork.<method>} is a root without parent ({@code orphans} of them).
     */
    private static void assertLinked(Executions x, String method, int perRequest, int orphans) {
        List<Exec> children = x.named("HandoffApp$Work." + method);
        assertThat(children).as("%s executions", method).hasSize(HandoffAppRequests.COUNT * perRequest);
        for (Exec c : children) {
            assertThat(c.thread()).as("%s", c).isNotEqualTo("main");
            assertThat(c.isTraceRoot()).as("%s starts its trace", c).isTrue();
            Exec parent = x.parentOf(c);
            assertThat(parent).as("parent of %s", c).isNotNull();
            assertThat(parent.shortName()).as("parent of %s", c).isEqualTo("HandoffApp$Request.submitAll");
            assertThat(parent.order()).isEqualTo(2);
            assertThat(x.root(parent.traceId()).shortName()).isEqualTo("HandoffApp$Request.handle");
        }
        Map<Long, Long> perParent = children.stream().collect(Collectors.groupingBy(Exec::parentTraceId, Collectors.counting()));
        assertThat(perParent).as("children per request").hasSize(HandoffAppRequests.COUNT)
                .allSatisfy((trace, n) -> assertThat(n).isEqualTo((long) perRequest));
        List<Exec> orphanRuns = x.named("HandoffApp$OrphanWork." + method);
        assertThat(orphanRuns).as("orphan %s executions", method).hasSize(orphans);
        for (Exec o : orphanRuns) {
            assertThat(o.isTraceRoot()).as("%s starts its trace", o).isTrue();
            assertThat(o.parentTraceId()).as("%s handed over outside any trace: a root", o).isZero();
        }
    }

    /** The number of requests the application runs. */
    private static final class HandoffAppRequests {
        static final int COUNT = 3;
    }

    @Test
    void threadPoolTasksAreChildrenOfTheSubmitter() throws Exception {
        Executions x = run("pool");
        assertLinked(x, "pooled", 2, 2);
        assertLinked(x, "called", 1, 1);
    }

    @Test
    void scheduledTasksOneShotAndEveryPeriodicRunAreChildrenOfTheScheduler() throws Exception {
        Executions x = run("scheduled");
        assertLinked(x, "scheduled", 1, 1);
        assertLinked(x, "called", 1, 1);
        assertLinked(x, "periodic", 3, 3);
    }

    @Test
    void completableFutureAsyncStagesOnTheCommonPoolAndOnAPoolAreChildrenOfTheBuilder() throws Exception {
        Executions x = run("completable");
        assertLinked(x, "supplied", 2, 2);
        assertLinked(x, "applied", 1, 1);
    }

    @Test
    void forkJoinTasksKeepTheirIdentityAndLinkToTheForkingExecution() throws Exception {
        Executions x = run("forkjoin"); // the app checks inForkJoinPool(), getPool() and the sums
        // a task a worker starts is a child of the execution that submitted or forked it
        List<Exec> linkedOnWorkers = x.named("HandoffApp$Sum.compute").stream()
                .filter(e -> e.isTraceRoot() && !e.thread().equals("main") && e.parentTraceId() != 0)
                .collect(Collectors.toList());
        assertThat(linkedOnWorkers).as("tasks started by pool workers").isNotEmpty();
        for (Exec c : linkedOnWorkers) {
            assertThat(x.parentOf(c)).as("parent of %s", c).isNotNull()
                    .extracting(Exec::shortName).isIn("HandoffApp$Request.submitAll", "HandoffApp$Sum.compute");
        }
        // every leaf of a request is in a tree that reaches that request, across however many workers
        List<Exec> leaves = x.named("HandoffApp$Work.leaf");
        assertThat(leaves).hasSize(HandoffAppRequests.COUNT * (64 + 8));
        Map<Long, Long> leavesPerRequest = leaves.stream()
                .collect(Collectors.groupingBy(l -> top(x, l).traceId(), Collectors.counting()));
        assertThat(leavesPerRequest.keySet()).allSatisfy(
                t -> assertThat(x.root(t).shortName()).isEqualTo("HandoffApp$Request.handle"));
        assertThat(leavesPerRequest.values()).containsExactly(72L, 72L, 72L);
        // the orphan's tasks (submitted outside any trace) and what they fork: trees of their own
        for (Exec leaf : x.named("HandoffApp$OrphanWork.leaf")) {
            Exec top = top(x, leaf);
            assertThat(top.shortName()).isEqualTo("HandoffApp$Sum.compute");
            assertThat(top.parentTraceId()).isZero();
        }
    }

    /** The root execution of the tree {@code e} belongs to, following parent links across threads. */
    private static Exec top(Executions x, Exec e) {
        Exec root = x.root(e.traceId());
        for (Exec p; (p = x.parentOf(root)) != null; ) {
            root = x.root(p.traceId());
        }
        return root;
    }

    @Test
    void threadsStartedInsideATraceAreItsChildren() throws Exception {
        Executions x = run("threads");
        assertLinked(x, "thread", 1, 1);
    }

    @Test
    void platformAndVirtualThreadsOnJdk21AndLater() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(JDK25.resolve("bin/java")),
                "skipped: no JDK 21+ at " + JDK25 + " (set -Dsonde.jdk25=...): Thread.ofPlatform/ofVirtual untested");
        Executions x = run(JDK25, OPTIONS, "threads");
        assertLinked(x, "thread", 2, 2); // new Thread(r).start() and Thread.ofPlatform().start(r)
        Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> p.toFile().delete());
        x = run(JDK25, OPTIONS, "virtual");
        assertLinked(x, "virtualThread", 2, 2); // Thread.ofVirtual().start(r) and newVirtualThreadPerTaskExecutor
    }

    @Test
    void aPoolThreadStartedInsideATraceDoesNotLinkLaterTasksToIt() throws Exception {
        Executions x = run("workers");
        assertLinked(x, "pooled", 1, 1);
    }

    @Test
    void executorsOffLinksNothing() throws Exception {
        Executions x = run(Path.of(System.getProperty("java.home")), OPTIONS + ",executors=off", "completable");
        assertThat(x.named("HandoffApp$Work.supplied")).hasSize(6);
        assertThat(x.all).allSatisfy(e -> assertThat(e.parentTraceId()).as("%s", e).isZero());
    }
}
