package io.sonde.bench.real.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CPU time by kind of thread, from the kernel's per-thread stat lines. */
class ThreadKindsCpuTest {

    @Test
    void threadsAreSortedIntoKindsByTheirKernelNames() {
        assertThat(ThreadKindsCpu.kind("C2 CompilerThre")).isEqualTo("jit");
        assertThat(ThreadKindsCpu.kind("C1 CompilerThre")).isEqualTo("jit");
        assertThat(ThreadKindsCpu.kind("GC Thread#0")).isEqualTo("gc");
        assertThat(ThreadKindsCpu.kind("G1 Conc#0")).isEqualTo("gc");
        assertThat(ThreadKindsCpu.kind("VM Thread")).isEqualTo("vm");
        assertThat(ThreadKindsCpu.kind("sonde-writer")).isEqualTo("agent.sonde-writer");
        assertThat(ThreadKindsCpu.kind("java")).isEqualTo("main");
        assertThat(ThreadKindsCpu.kind("main")).isEqualTo("main");
        assertThat(ThreadKindsCpu.kind("qtp1234-17")).isEqualTo("other");
    }

    @Test
    void userAndSystemTicksOfAStatLineAreAddedInNanoseconds() {
        // the fields after "(name) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String afterName = "S 1 1 1 0 -1 4194368 100 0 0 0 250 30 0 0 20 0 30 0";
        assertThat(ThreadKindsCpu.cpuNanos(afterName)).isEqualTo(280 * 10_000_000L);
        assertThat(ThreadKindsCpu.cpuNanos("S 1 2")).isZero();
    }

    @Test
    void theReportIsTheDifferencePerKindInMilliseconds() {
        List<String> lines = new ArrayList<>();
        ThreadKindsCpu.report("thread_cpu", Map.of("jit", 1_000_000_000L), Map.of("jit", 3_500_000_000L, "main", 20_000_000L), lines);
        assertThat(lines).containsExactlyInAnyOrder("thread_cpu.jit_ms=2500", "thread_cpu.main_ms=20");
    }

    @Test
    void aSnapshotOfThisProcessListsItsThreadsWhereProcIsThere() {
        Map<String, Long> now = ThreadKindsCpu.snapshot();
        if (!java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            assertThat(now).isEmpty();
            return;
        }
        assertThat(now).isNotEmpty().containsKey("jit"); // a JVM always has its compiler threads
        assertThat(now.values()).allMatch(v -> v >= 0);
    }
}
