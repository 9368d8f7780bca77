package io.sonde.collector.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.collector.archive.Archive;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.collector.receive.StreamSummary;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.Format;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A healthy agent that goes quiet longer than the receiver's idle timeout is disconnected; its
 * next frame must not vanish into the closed connection (the receiver resets it, so the core TCP
 * writer's next write fails and it reconnects and re-sends): the folder reads complete with every
 * record produced. The re-sent frame carries a new sequence number, so each reconnect leaves one
 * number unused, which receiver and reader both count as a gap.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpIdleTimeoutTest {
    @TempDir
    Path out;

    @Test
    void aQuietAgentDisconnectedForIdlenessLosesNoFrame() throws Exception {
        List<String> ends = new CopyOnWriteArrayList<>();
        Receiver receiver = Receiver.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new Archive(out), new ReceiverListener() {
            @Override
            public void closed(String peer, StreamSummary s) {
                ends.add("closed " + s.describe());
            }

            @Override
            public void failed(String peer, long offset, String problem, StreamSummary s) {
                ends.add("failed " + problem);
            }
        }, ReceiverLimits.defaults().withIdleTimeout(Duration.ofMillis(300)));
        UUID agent;
        long produced = 0;
        try {
            Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port", String.valueOf(receiver.port()),
                    "flush.interval.ms", "5")));
            agent = m.agentId();
            MethodProbe probe = m.methodProbe("app.Quiet.work", "()V");
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 50; i++) {
                    probe.exit(probe.enter());
                    produced += 2;
                }
                // quiet for longer than the idle timeout: the receiver closes the connection
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                int before = round + 1;
                while (ends.size() < before && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertThat(ends).as("connection " + before + " ended by the idle timeout").hasSize(before);
                assertThat(ends.get(round)).contains("limit idle-timeout 0.3 s");
            }
            for (int i = 0; i < 50; i++) {
                probe.exit(probe.enter());
                produced += 2;
            }
            m.close();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (ends.size() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(ends).hasSize(4);
            assertThat(ends.get(3)).startsWith("closed ").endsWith("trailer received");
        } finally {
            receiver.stop();
        }
        ReceiverStatus.AgentStatus a = receiver.status().agents().get(agent);
        assertThat(a.connections()).isEqualTo(4);
        assertThat(a.missingFrames()).as(a.describe()).isBetween(0L, 3L); // at most one re-sent frame per reconnect
        assertThat(a.firstSequence()).isZero();
        assertThat(a.trailer()).isTrue();
        long records = 0;
        try (SondeReader r = SondeReader.open(out.resolve(agent.toString()))) {
            while (r.next()) {
                records += Format.isDataRecord(r.type()) ? 1 : 0;
            }
            assertThat(r.end().kind()).as(r.end().toString()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(r.missingFrames()).isEqualTo(a.missingFrames());
            assertThat(r.trailer().written()).isEqualTo(produced);
        }
        assertThat(records).isEqualTo(produced);
    }
}
