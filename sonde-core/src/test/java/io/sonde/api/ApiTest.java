package io.sonde.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.probe.Probes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class ApiTest {
    @TempDir
    Path dir;

    Monitor start(String... kv) {
        java.util.HashMap<String, String> s = new java.util.HashMap<>(Map.of("writer", "file", "file.dir", dir.toString()));
        for (int i = 0; i < kv.length; i += 2) s.put(kv[i], kv[i + 1]);
        return MonitorAccess.start(SondeConfig.of(s));
    }

    @Test
    void withoutAMonitorEverythingIsANoOp() {
        assertThat(Sonde.current()).isNull();
        assertThat(Probes.enter(1)).isFalse();
        Probes.exit(1, true);
        assertThat(Sonde.currentTraceId()).isZero();
        assertThat(Sonde.currentTrace()).isNull();
        assertThat(Sonde.currentOrderIndex()).isEqualTo(-1);
    }

    @Test
    void onlyOneMonitorRunsAtATime() {
        try (Monitor m = start()) {
            assertThat(Sonde.current()).isSameAs(m);
            org.assertj.core.api.Assertions.assertThatThrownBy(this::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already running");
        }
        assertThat(Sonde.current()).isNull();
    }

    @Test
    void switchedOffProbesRecordNothingAndSwitchingReachesARunningLoop() throws Exception {
        AtomicLong recorded = new AtomicLong();
        try (Monitor m = start()) {
            MethodProbe p = m.methodProbe("a.B.loop", "()V");
            assertThat(m.methodProbe("a.B.loop", "()V").id()).isEqualTo(p.id());
            p.setEnabled(false);
            assertThat(p.enter()).isFalse();
            AtomicBoolean stop = new AtomicBoolean();
            Thread loop = new Thread(() -> {
                while (!stop.get() && recorded.get() < 1000) {
                    boolean e = Probes.enter(p.id());
                    Probes.exit(p.id(), e);
                    if (e) recorded.incrementAndGet();
                }
            });
            loop.start();
            Thread.sleep(50);
            assertThat(recorded.get()).isZero();
            p.setEnabled(true);
            loop.join(20_000);
            stop.set(true);
            assertThat(recorded.get()).isEqualTo(1000);
            // entered=false keeps enter and exit balanced across a switch
            boolean e = p.enter();
            p.setEnabled(false);
            p.exit(e);
            assertThat(Sonde.currentDepth()).isZero();
        }
        LogContent log = LogContent.read(dir);
        assertThat(log.dataRecords).isEqualTo(2 * 1000 + 2);
    }

    @Test
    void exceptionsTraceContextAndHandOff() throws Exception {
        TraceContext[] captured = new TraceContext[1];
        long[] childTrace = new long[1];
        try (Monitor m = start()) {
            MethodProbe outer = m.methodProbe("a.B.outer", "()V");
            MethodProbe inner = m.methodProbe("a.B.inner", "()V");
            boolean e = outer.enter();
            long trace = Sonde.currentTraceId();
            assertThat(trace).isNotZero();
            boolean f = inner.enter();
            assertThat(Sonde.currentOrderIndex()).isEqualTo(1);
            captured[0] = Sonde.currentTrace();
            try {
                throw new IllegalArgumentException("boom");
            } catch (IllegalArgumentException x) {
                inner.exitExceptionally(f, x);
            }
            Thread child = new Thread(() -> {
                Sonde.continueTrace(captured[0]);
                boolean g = inner.enter();
                childTrace[0] = Sonde.currentTraceId();
                inner.exit(g);
            }, "child");
            child.start();
            child.join();
            outer.exit(e);
            assertThat(captured[0].traceId()).isEqualTo(trace);
            assertThat(captured[0].depth()).isEqualTo(2);
        }
        assertThat(childTrace[0]).isNotZero().isNotEqualTo(captured[0].traceId());
        LogContent log = LogContent.read(dir);
        String main = Thread.currentThread().getName();
        assertThat(log.byThreadName.get(main)).containsExactly("TRACE_START parent=0 order=-1", "ENTER a.B.outer",
                "ENTER a.B.inner", "EXIT_EXCEPTION a.B.inner java.lang.IllegalArgumentException", "EXIT a.B.outer");
        assertThat(log.byThreadName.get("child")).containsExactly(
                "TRACE_START parent=" + captured[0].traceId() + " order=1", "ENTER a.B.inner", "EXIT a.B.inner");
    }

    @Test
    void countersAreReadableWhileRunningAndBalanceAfterClose() {
        Monitor m = start("writer", "discard");
        try {
            MethodProbe p = m.methodProbe("a.B.c", "()V");
            for (int k = 0; k < 100; k++) p.exit(p.enter());
            Counters c = m.counters();
            assertThat(c.produced()).isEqualTo(200);
            assertThat(c.written() + c.dropped() + c.inFlight()).isEqualTo(200);
        } finally {
            m.close();
        }
        Counters c = m.counters();
        assertThat(c.produced()).isEqualTo(200);
        assertThat(c.written()).isEqualTo(200);
        assertThat(c.inFlight()).isZero();
    }

    @Test
    void textWriterPrintsOneLinePerRecord() throws Exception {
        Path out = dir.resolve("trace.txt");
        try (Monitor m = start("writer", "text", "text.out", out.toString(), "cpu.time", "roots")) {
            MethodProbe p = m.methodProbe("a.B.c", "(I)V");
            EventType ev = m.eventType("order", EventField.stringField("item"), EventField.doubleField("price"));
            boolean e = p.enter();
            ev.begin().putString(m.string("book")).putDouble(9.5).end();
            p.exit(e);
        }
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).anyMatch(l -> l.equals("registry PROBE_DEF 1 a.B.c(I)V"));
        assertThat(lines).anyMatch(l -> l.contains(" ENTER_CPU a.B.c(I)V time="));
        assertThat(lines).anyMatch(l -> l.contains(" EVENT order time=") && l.endsWith(" item=book price=9.5"));
        assertThat(lines).anyMatch(l -> l.contains(" EXIT_CPU a.B.c(I)V time="));
        assertThat(lines).anyMatch(l -> l.equals("trailer: produced 3, written 3"));
        assertThat(lines).noneMatch(l -> l.startsWith("error:"));
    }

    @Test
    void threadFilterExcludesThreadsOnceAndCompletely() throws Exception {
        Counters c;
        Monitor m = start("writer", "discard");
        boolean[] enteredOnFiltered = new boolean[1];
        try {
            MonitorAccess.pipeline(m).runtime().setThreadFilter(t -> !t.getName().startsWith("quiet-"));
            MethodProbe p = m.methodProbe("a.B.c", "()V");
            EventType ev = m.eventType("e");
            Thread quiet = new Thread(() -> {
                boolean e = p.enter();
                enteredOnFiltered[0] = e;
                ev.emit();
                p.exit(e);
            }, "quiet-1");
            quiet.start();
            quiet.join();
            p.exit(p.enter());
        } finally {
            m.close();
        }
        c = m.counters();
        assertThat(enteredOnFiltered[0]).isFalse();
        assertThat(c.produced()).isEqualTo(2);
        assertThat(c.written()).isEqualTo(2);
    }

    @Test
    void eventTypesTooLargeForTheRingAreRejected() {
        try (Monitor m = start("buffer.bytes", "256")) {
            EventField[] many = new EventField[20];
            for (int i = 0; i < many.length; i++) many[i] = EventField.longField("f" + i);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> m.eventType("big", many))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("buffer.bytes");
        }
    }
}
