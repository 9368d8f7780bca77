package io.sonde.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.DropReason;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: with the default policy ({@code block}) and a tcp writer whose receiver is not there,
 * the application must not be held up while the writer retries connecting. Producers wait at most
 * {@code block.timeout.ms} for ring space, then drop (reason buffer full) until the ring has room.
 */
@Timeout(120)
class DeadReceiverTest {
    static final int CALLS = 3_000_000;

    @TempDir
    Path dir;

    @Test
    void theDefaultPolicyDoesNotHoldTheApplicationWhenNothingListens() throws Exception {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort(); // closed again below: nothing listens there
        }
        runCalls(Map.of("writer", "file", "file.dir", dir.toString())); // warm-up of the JIT
        long fileNanos = runCalls(Map.of("writer", "file", "file.dir", dir.resolve("b").toString()))[0];
        long[] tcp = runCalls(Map.of("writer", "tcp", "tcp.port", String.valueOf(deadPort)));
        long tcpNanos = tcp[0];
        System.out.printf("DeadReceiverTest: %d calls, file writer %.2f s, tcp writer with nothing listening %.2f s%n",
                CALLS, fileNanos / 1e9, tcpNanos / 1e9);
        // generous for a loaded machine; a writer that held the application while nothing listens
        // (connect attempts per record, or waiting forever) exceeds it by orders of magnitude
        assertThat(tcpNanos).as("run time with a dead receiver against 5x the file writer's + 5 s")
                .isLessThanOrEqualTo(5 * fileNanos + 5_000_000_000L);
        assertThat(tcp[1]).as("records dropped (buffer full)").isPositive();
    }

    /** Runs the calls and closes; returns {nanoseconds, records dropped as buffer full}. */
    private long[] runCalls(Map<String, String> writer) {
        Map<String, String> s = new HashMap<>(writer); // default shutdown.timeout.ms: close() is part of the bound
        long t0 = System.nanoTime();
        Monitor m = MonitorAccess.start(SondeConfig.of(s));
        try {
            MethodProbe p = m.methodProbe("app.Service.call", "()V");
            for (int i = 0; i < CALLS; i++) {
                boolean e = p.enter();
                p.exit(e);
            }
        } finally {
            m.close();
        }
        long nanos = System.nanoTime() - t0;
        Counters c = m.counters();
        assertThat(c.produced()).isEqualTo(2L * CALLS);
        assertThat(c.written() + c.dropped()).as("every record written or counted dropped: " + c)
                .isEqualTo(c.produced());
        return new long[] {nanos, c.dropped(DropReason.BUFFER_FULL)};
    }
}
