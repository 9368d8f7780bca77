package io.sonde.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.DropReason;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Under policy drop with tiny rings, drop counts are exact: produced = written + drops. */
@Timeout(120)
class DropPolicyTest {
    @TempDir
    Path dir;

    @Test
    void countsByReasonBalanceExactly() throws Exception {
        AtomicLong attempted = new AtomicLong();
        Counters counters;
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "file", "file.dir", dir.toString(),
                "policy", "drop", "buffer.bytes", "256", "flush.interval.ms", "50")));
        try {
            MethodProbe p = m.methodProbe("x.Y.z", "()V");
            EventType ev = m.eventType("ev", EventField.longField("n"));
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                ts.add(new Thread(() -> {
                    long mine = 0;
                    for (int k = 0; k < 50_000; k++) {
                        boolean e = p.enter();
                        ev.begin().putLong(k).end();
                        p.exit(e);
                        mine += e ? 3 : 1;
                    }
                    attempted.addAndGet(mine);
                }));
            }
            ts.forEach(Thread::start);
            for (Thread t : ts) t.join();
        } finally {
            m.close();
        }
        counters = m.counters();
        LogContent log = LogContent.read(dir);
        assertThat(counters.produced()).isEqualTo(attempted.get());
        assertThat(counters.inFlight()).isZero();
        assertThat(log.trailer.produced()).isEqualTo(attempted.get());
        assertThat(log.trailer.written()).isEqualTo(counters.written());
        assertThat(log.trailer.dropped(DropReason.BUFFER_FULL)).isEqualTo(counters.dropped(DropReason.BUFFER_FULL));
        assertThat(log.trailer.produced()).isEqualTo(log.trailer.written() + log.trailer.droppedTotal());
        assertThat(log.dataRecords).isEqualTo(log.trailer.written());
        long gaps = log.byThreadName.values().stream().flatMap(List::stream).filter(s -> s.startsWith("GAP "))
                .mapToLong(s -> Long.parseLong(s.substring(4))).sum();
        // every drop is announced by a GAP, except drops after a thread's last written record
        assertThat(gaps).isLessThanOrEqualTo(counters.dropped(DropReason.BUFFER_FULL));
        if (counters.dropped(DropReason.BUFFER_FULL) > 0) assertThat(gaps).isPositive();
    }

    @Test
    void threadsBeyondBuffersMaxDropWithReasonNoBuffer() throws Exception {
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "discard", "buffers.max", "1")));
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        int[] depthSeen = new int[1];
        try {
            MethodProbe p = m.methodProbe("x.Y.z", "()V");
            Thread owner = new Thread(() -> {
                boolean e = p.enter();
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                p.exit(e);
            });
            owner.start();
            entered.await();
            // the only ring belongs to the live owner: this thread gets none
            Thread other = new Thread(() -> {
                boolean e = p.enter();
                depthSeen[0] = Sonde.currentDepth(); // the trace context works without a ring
                p.exit(e);
            });
            other.start();
            other.join();
            release.countDown();
            owner.join();
        } finally {
            m.close();
        }
        Counters c = m.counters();
        assertThat(depthSeen[0]).isEqualTo(1);
        assertThat(c.produced()).isEqualTo(4);
        assertThat(c.dropped(DropReason.NO_BUFFER)).isEqualTo(2);
        assertThat(c.written()).isEqualTo(2);
        assertThat(c.produced()).isEqualTo(c.written() + c.dropped());
    }
}
