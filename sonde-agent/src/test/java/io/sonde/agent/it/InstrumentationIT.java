package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.it.Recorded.Rec;
import io.sonde.agent.testing.AgentJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts the sample application in real JVMs with {@code -javaagent:sonde-agent.jar} and checks
 * the records read back from the file writer's output.
 */
class InstrumentationIT {

    private static final String SAMPLE = "io.sonde.agent.sample.";

    @TempDir
    Path dir;

    private Recorded run(String options, String scenario) throws Exception {
        try (AgentJvm p = AgentProcess.start(options + ",file.dir=" + dir, scenario)) {
            p.awaitLine("done");
            assertThat(p.awaitExit()).as("exit code; stderr: %s", p.stderr()).isZero();
            assertThat(p.stderr()).as("stderr").doesNotContain("Exception", "WARNING", "sonde-agent:");
        }
        return Recorded.read(dir);
    }

    @Test
    void recordsNamesNestingOrderCountsAndExceptions() throws Exception {
        Recorded r = run("include=" + SAMPLE + "*", "basic");
        List<Rec> main = r.thread("main");

        // the call tree of main: a well-formed stack, exits matching enters
        Deque<String> stack = new ArrayDeque<>();
        List<String> order = new ArrayList<>();
        int maxFactorialDepth = 0;
        int factorialDepth = 0;
        for (Rec x : main) {
            if (x.isEnter()) {
                if (stack.isEmpty()) {
                    assertThat(order).as("a trace start precedes the first enter").isNotEmpty();
                }
                stack.push(x.probe());
                order.add("> " + x.method());
                if (x.method().equals("factorial")) {
                    maxFactorialDepth = Math.max(maxFactorialDepth, ++factorialDepth);
                }
            } else if (x.isExit() || x.isExceptionExit()) {
                assertThat(stack.pop()).as("exit matches the innermost enter").isEqualTo(x.probe());
                order.add("< " + x.method() + (x.isExceptionExit() ? " !" + x.exception() : ""));
                if (x.method().equals("factorial")) {
                    factorialDepth--;
                }
            } else if (x.isTraceStart()) {
                assertThat(stack).as("trace starts at depth 0").isEmpty();
                order.add("trace");
            }
        }
        assertThat(stack).as("every method exited").isEmpty();

        // names and nesting: main > basic > checkout > price x3
        assertThat(order.subList(0, 11)).containsExactly(
                "trace", "> main", "> basic", "> checkout", "> price", "< price", "> price", "< price",
                "> price", "< price", "< checkout");
        // recursion: factorial(5) nests five deep
        assertThat(maxFactorialDepth).isEqualTo(5);
        // the exception passes through two probed methods, recorded with its class
        assertThat(order).containsSubsequence(
                "> failingOrder", "> validate", "< validate !java.lang.IllegalStateException",
                "< failingOrder !java.lang.IllegalStateException");
        // the lambda body is probed (javac names it lambda$basic$N) and calls factorial(1)
        int lambda = indexOfPrefix(order, "> lambda$basic$");
        assertThat(lambda).as("lambda body probed: %s", order).isPositive();
        assertThat(order.get(lambda + 1)).isEqualTo("> factorial");
        // counts
        assertThat(r.enters("SampleApp$Shop.price")).isEqualTo(3 + 10);
        assertThat(r.enters("SampleApp$Recursion.factorial")).isEqualTo(5 + 1);
        assertThat(r.enters("SampleApp.main")).isEqualTo(1);
        // nothing lost
        assertThat(r.trailer).isNotNull();
        assertThat(r.trailer.written()).isEqualTo(r.trailer.produced());
        assertThat(r.trailer.droppedTotal()).isZero();
        // constructors are not probed
        assertThat(r.records).noneMatch(x -> x.probe() != null && x.probe().endsWith(".<init>"));
    }

    @Test
    void includeEverythingStillLeavesTheJdkAndSondeAlone() throws Exception {
        Recorded r = run("include=*", "executor");
        assertThat(r.records).filteredOn(x -> x.probe() != null)
                .allSatisfy(x -> assertThat(x.probe()).startsWith(SAMPLE));
        assertThat(r.enters(".dispatch")).isEqualTo(1);
    }

    @Test
    void rulesApplyTopToBottomFirstMatchWins() throws Exception {
        // exclude price before the broad include: price is not probed, checkout is
        Recorded r = run("exclude=*.price,include=" + SAMPLE + "SampleApp$Shop.*", "basic");
        assertThat(r.enters(".checkout")).isEqualTo(1);
        assertThat(r.enters(".price")).isZero();
        assertThat(r.enters(".main")).isZero();
        // the other way round the include matches first
        Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> p.toFile().delete());
        Recorded r2 = run("include=" + SAMPLE + "SampleApp$Shop.*,exclude=*.price", "basic");
        assertThat(r2.enters(".price")).isEqualTo(13);
    }

    @Test
    void threadFiltersSelectThreadsByName() throws Exception {
        Recorded only = run("include=" + SAMPLE + "*,include.thread=worker-*;main", "threads");
        assertThat(only.threads()).containsExactlyInAnyOrder("worker-1", "worker-2", "main");

        Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> p.toFile().delete());
        Recorded allBut = run("include=" + SAMPLE + "*,exclude.thread=noisy-*", "threads");
        assertThat(allBut.threads()).containsExactlyInAnyOrder("worker-1", "worker-2", "main");
        // the thread's lambda body, checkout, and price twice
        assertThat(allBut.thread("worker-1").stream().filter(Rec::isEnter)
                        .map(x -> x.method().startsWith("lambda$threads$") ? "lambda" : x.method())
                        .collect(Collectors.toList()))
                .containsExactly("lambda", "checkout", "price", "price");

        Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> p.toFile().delete());
        Recorded all = run("include=" + SAMPLE + "*", "threads");
        assertThat(all.threads()).containsExactlyInAnyOrder("worker-1", "worker-2", "noisy-1", "main");
    }

    @Test
    void taskExecutionsContinueTheSubmittersTrace() throws Exception {
        // main() and executor() are not probed, so main's traces start at dispatch(), and the
        // second pool's task is submitted outside any trace
        Recorded r = run("exclude=*.main;*.executor;*$TwoCalls.*,include=" + SAMPLE + "*", "executor");
        // main's trace, and the order index of dispatch() in it
        List<Rec> main = r.thread("main");
        Rec mainStart = main.stream().filter(Rec::isTraceStart).findFirst().orElseThrow();
        int index = -1;
        int dispatchIndex = -1;
        for (Rec x : main) {
            if (x.isTraceStart() && x != mainStart) {
                break;
            }
            if (x.isEnter()) {
                index++;
                if (x.method().equals("dispatch")) {
                    dispatchIndex = index;
                }
            }
        }
        assertThat(dispatchIndex).isZero();

        // each task dispatch() hands over is a lambda$dispatch$N; wherever it runs, it belongs to
        // dispatch()'s trace: on a pool thread as a child trace naming (main's trace, dispatch's
        // index), or on main itself nested inside dispatch() (the fork-join pool lets a caller
        // that waits run a task it has not started yet)
        List<String> taskThreads = new ArrayList<>();
        for (String thread : r.threads()) {
            Rec lastStart = null;
            int depth = 0;
            for (Rec x : r.thread(thread)) {
                if (x.isTraceStart()) {
                    lastStart = x;
                } else if (x.isEnter()) {
                    if (x.method().startsWith("lambda$dispatch$")) {
                        taskThreads.add(thread);
                        if (thread.equals("main")) {
                            assertThat(depth).as("task run by main nests in dispatch()").isPositive();
                        } else {
                            assertThat(depth).as("%s starts a trace", x).isZero();
                            assertThat(lastStart.parentTraceId()).as("%s", lastStart).isEqualTo(mainStart.traceId());
                            assertThat(lastStart.parentOrder()).as("%s", lastStart).isEqualTo(dispatchIndex);
                        }
                    }
                    depth++;
                } else if (x.isExit() || x.isExceptionExit()) {
                    depth--;
                }
            }
        }
        // submit(Runnable), submit(Callable), fork-join submit, execute
        assertThat(taskThreads).hasSize(4);
        // every trace started on the first pool names dispatch() as its parent: one per lambda
        // task (three), and both top-level calls of the TwoCalls task
        List<Rec> poolStarts = r.records.stream()
                .filter(x -> x.isTraceStart() && x.thread().startsWith("pool-1-thread"))
                .collect(Collectors.toList());
        assertThat(poolStarts).hasSize(5);
        for (Rec s : poolStarts) {
            assertThat(s.parentTraceId()).as("%s", s).isEqualTo(mainStart.traceId());
            assertThat(s.parentOrder()).as("%s", s).isEqualTo(dispatchIndex);
        }
        assertThat(taskThreads).filteredOn(t -> t.startsWith("pool-1-thread")).hasSizeGreaterThanOrEqualTo(3);
        // a task submitted outside any trace starts a trace without parent
        assertThat(r.records.stream().filter(x -> x.isTraceStart() && x.thread().startsWith("pool-2-thread")))
                .singleElement()
                .satisfies(s -> assertThat(s.parentTraceId()).isZero());
    }

    @Test
    void badOptionsLeaveTheApplicationRunningUnmonitored() throws Exception {
        try (AgentJvm p = AgentProcess.start("include=" + SAMPLE + "*,cpu=maybe,file.dir=" + dir, "basic")) {
            p.awaitLine("done");
            assertThat(p.awaitExit()).isZero();
            List<String> lines = p.stderr().lines().collect(Collectors.toList());
            assertThat(lines).containsExactly(
                    "sonde-agent: -javaagent options entry 2: bad value 'maybe' for key 'cpu.time': must be one of off, on, roots",
                    "sonde-agent: bad options: the application runs unmonitored");
        }
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aMissingConfigFileIsNamed() throws Exception {
        Path missing = dir.resolve("nope.conf");
        try (AgentJvm p = AgentProcess.start("config=" + missing, "basic")) {
            p.awaitLine("done");
            assertThat(p.awaitExit()).isZero();
            assertThat(p.stderr()).contains("cannot read config file " + missing + ": no such file");
        }
    }

    @Test
    void readsAConfigFileWithThesisStyleDirectives() throws Exception {
        Path conf = dir.resolve("sonde.conf");
        Path out = dir.resolve("out");
        Files.writeString(conf, String.join("\n",
                "# JPMT-style directives (thesis Table 3.1) and key=value lines mix",
                "exclude_method " + SAMPLE + "SampleApp$Recursion *",
                "include_method " + SAMPLE + "* *",
                "exclude_thread noisy-*",
                "cpu = on",
                "file.dir=" + out,
                ""));
        try (AgentJvm p = AgentProcess.start("config=" + conf, "basic")) {
            p.awaitLine("done");
            assertThat(p.awaitExit()).as(p.stderr()).isZero();
        }
        Recorded r = Recorded.read(out);
        assertThat(r.enters(".factorial")).isZero();
        assertThat(r.enters(".checkout")).isEqualTo(1);
        assertThat(r.records).filteredOn(Rec::isEnter).allMatch(x -> x.type() == io.sonde.format.Format.ENTER_CPU);
    }

    @Test
    void manyThreadsAtOnceLoseNothing() throws Exception {
        Recorded r = run("include=" + SAMPLE + "SampleApp$Shop.*,policy=block", "many");
        assertThat(r.threads()).hasSize(16);
        assertThat(r.enters(".checkout")).isEqualTo(16 * 500);
        assertThat(r.enters(".price")).isEqualTo(16 * 500 * 3);
        assertThat(r.records.stream().filter(x -> x.isExit()).count()).isEqualTo(16 * 500 * 4);
        assertThat(r.trailer.droppedTotal()).isZero();
        assertThat(r.trailer.written()).isEqualTo(r.trailer.produced()).isEqualTo(2L * 16 * 500 * 4);
    }

    /**
     * A class whose method cannot take the probe (its code is near the JVM's 64 KiB limit, so the
     * woven method would be too large): reported once, left alone, and the application carries on.
     */
    @Test
    void aClassThatCannotBeInstrumentedIsLoggedOnceAndLeftAlone() throws Exception {
        Path classes = dir.resolve("generated");
        String name = "io.sonde.agent.sample.gen.Huge";
        // 32,760 x (iconst_0, pop) = 65,520 bytes of code, then iconst_1, ireturn
        net.bytebuddy.implementation.bytecode.StackManipulation[] body =
                new net.bytebuddy.implementation.bytecode.StackManipulation[2 * 32_760 + 2];
        for (int i = 0; i < 32_760; i++) {
            body[2 * i] = net.bytebuddy.implementation.bytecode.constant.IntegerConstant.ZERO;
            body[2 * i + 1] = net.bytebuddy.implementation.bytecode.Removal.SINGLE;
        }
        body[body.length - 2] = net.bytebuddy.implementation.bytecode.constant.IntegerConstant.ONE;
        body[body.length - 1] = net.bytebuddy.implementation.bytecode.member.MethodReturn.INTEGER;
        new net.bytebuddy.ByteBuddy()
                .subclass(Object.class)
                .name(name)
                .defineMethod("run", int.class, net.bytebuddy.description.modifier.Visibility.PUBLIC,
                        net.bytebuddy.description.modifier.Ownership.STATIC)
                .intercept(new net.bytebuddy.implementation.Implementation.Simple(body))
                .make()
                .saveIn(classes.toFile());
        Path out = dir.resolve("out");
        String cp = AgentProcess.TEST_CLASSES + java.io.File.pathSeparator + classes;
        try (AgentJvm p = AgentProcess.start(Path.of(System.getProperty("java.home")),
                "include=" + SAMPLE + "*,file.dir=" + out, cp, "huge", name)) {
            assertThat(p.awaitLine("huge returned")).isEqualTo("huge returned 1");
            assertThat(p.awaitLine("huge returned")).isEqualTo("huge returned 1");
            p.awaitLine("done");
            assertThat(p.awaitExit()).as(p.stderr()).isZero();
            List<String> complaints = p.stderr().lines().filter(l -> l.contains("cannot instrument")).collect(Collectors.toList());
            assertThat(complaints).singleElement().asString()
                    .startsWith("sonde-agent: cannot instrument " + name + ", leaving it alone: ");
        }
        Recorded r = Recorded.read(out);
        assertThat(r.records).noneMatch(x -> x.probe() != null && x.probe().startsWith(name));
        assertThat(r.enters(".checkout")).isEqualTo(1);
    }

    /** The application's own Byte Buddy and the agent's relocated copy do not meet. */
    @Test
    void theApplicationsOwnByteBuddyIsUntouched() throws Exception {
        Path appByteBuddy = Path.of(net.bytebuddy.ByteBuddy.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String cp = AgentProcess.TEST_CLASSES + java.io.File.pathSeparator + appByteBuddy;
        Path out = dir.resolve("out");
        try (AgentJvm p = AgentProcess.start(Path.of(System.getProperty("java.home")),
                "include=" + SAMPLE + "*,file.dir=" + out, cp, "bytebuddy")) {
            assertThat(p.awaitLine("made by")).isEqualTo("made by the app's Byte Buddy");
            assertThat(p.awaitLine("byte buddy ")).contains(appByteBuddy.getFileName().toString());
            p.awaitLine("done");
            assertThat(p.awaitExit()).as(p.stderr()).isZero();
            assertThat(p.stderr()).isEmpty();
        }
        Recorded r = Recorded.read(out);
        assertThat(r.enters("ByteBuddyUser.ownByteBuddy")).isEqualTo(1);
        assertThat(r.enters(".checkout")).isEqualTo(1);
        assertThat(r.records).noneMatch(x -> x.probe() != null && x.probe().startsWith("net.bytebuddy"));
    }

    /** The agent on JDK 25 (if installed here): no warnings (Byte Buddy's relocated safe mode), same records. */
    @Test
    void worksOnJdk25WithoutWarnings() throws Exception {
        Path jdk25 = Path.of(System.getProperty("sonde.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64"));
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(jdk25.resolve("bin/java")), "no JDK 25 at " + jdk25);
        try (AgentJvm p = AgentProcess.start(jdk25, "include=" + SAMPLE + "*,file.dir=" + dir, "executor")) {
            p.awaitLine("done");
            assertThat(p.awaitExit()).as(p.stderr()).isZero();
            assertThat(p.stderr()).isEmpty();
        }
        Recorded r = Recorded.read(dir);
        assertThat(r.enters(".dispatch")).isEqualTo(1);
        assertThat(r.records).anyMatch(x -> x.isTraceStart() && x.parentTraceId() != 0);
        assertThat(r.trailer.written()).isEqualTo(r.trailer.produced());
    }

    private static int indexOfPrefix(List<String> list, String prefix) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}
