package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.format.DropReason;
import io.sonde.format.read.Trailer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of short-lived threads making monitored calls in a real JVM under the agent (128 MB of
 * heap): every record is in the log or counted dropped with a reason, rings of dead threads are
 * released and reused, nothing hangs.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ThreadChurnIT {
    static final int THREADS = 5_000;
    static final int CONCURRENT = 64;
    static final int CALLS_EACH = 100;

    @TempDir
    Path dir;

    /**
     * With 16 rings for 64 threads calling at once, some threads get no ring (reason no-buffer);
     * the others' records are all in the log, and far more than 16 threads have records, so rings
     * of dead threads were released and given to new ones.
     */
    @Test
    void fiveThousandShortLivedThreadsAreAllAccountedForWithSixteenRings() throws Exception {
        Outcome o = churn("buffers.max=16,buffer.bytes=65536");
        assertThat(o.trailer.dropped(DropReason.NO_BUFFER)).as("records of threads that found no ring").isPositive();
        assertThat(o.log.threads).as("threads with records (rings released and reused)").isGreaterThan(16);
    }

    /**
     * The defaults (1024 rings of 256 KiB, policy block) in a 128 MB heap: rings of dead threads
     * must be released or the heap runs out; with a live file writer nothing is dropped.
     */
    @Test
    void fiveThousandShortLivedThreadsWithTheDefaultsStayWithinTheHeap() throws Exception {
        Outcome o = churn(null);
        assertThat(o.log.threads).as("threads with records").isGreaterThan(1024);
    }

    record Outcome(long made, Archived log, Trailer trailer) {}

    private Outcome churn(String settings) throws Exception {
        Path out = dir.resolve("log");
        String options = TcpFaultsIT.INCLUDE + ",file.dir=" + out + (settings != null ? "," + settings : "");
        long t0 = System.nanoTime();
        try (AgentJvm p = AgentJvm.start(options, AgentProcess.TEST_CLASSES, TcpFaultsIT.APP, "churn",
                String.valueOf(THREADS), String.valueOf(CONCURRENT), String.valueOf(CALLS_EACH))) {
            assertThat(p.awaitLine("failed-threads ")).as("threads that died; stderr: %s", p.stderr()).isEqualTo("failed-threads 0");
            long made = Long.parseLong(p.awaitLine("made ").substring(5));
            assertThat(p.awaitExit()).as("exit code; stderr: %s", p.stderr()).isZero();
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(made).isEqualTo(2L * THREADS * CALLS_EACH);
            Archived log = Archived.read(out);
            Trailer t = log.trailer;
            System.out.printf("ThreadChurnIT (%s): %d threads, made %d, in the log %d of %d threads, dropped %s, %.2f s%n",
                    settings == null ? "defaults" : settings, THREADS, made, log.calls, log.threads, t, seconds);
            assertThat(t).as("trailer of %s", log).isNotNull();
            assertThat(t.produced()).as("records the agent counted = records the app made").isEqualTo(made);
            assertThat(log.calls + t.droppedTotal()).as("records read + dropped = made; %s", log).isEqualTo(made);
            assertThat(log.missingFrames).isZero();
            return new Outcome(made, log, t);
        }
    }
}
