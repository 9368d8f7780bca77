package io.sonde.collector.receive;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.collector.archive.Archive;
import io.sonde.format.Format;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each receiver limit over real TCP on 127.0.0.1: the peer exceeding it is closed with a logged
 * line naming it and the limit, while another peer is served and archived intact.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReceiverLimitsTest {
    @TempDir
    Path out;

    private final Events events = new Events();
    private Receiver receiver;
    private Archive archive;

    private void start(ReceiverLimits limits) throws IOException {
        archive = new Archive(out);
        receiver = Receiver.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), archive, events, limits);
    }

    @AfterEach
    void stop() {
        if (receiver != null) {
            receiver.abort();
        }
    }

    /** True if the receiver closed the socket: a read ends (EOF or reset) within the time given. */
    private static boolean closedByReceiver(Socket s, int millis) throws IOException {
        s.setSoTimeout(millis);
        InputStream in = s.getInputStream();
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** Waits until the receiver stored at least n bytes of the agent's segment. */
    private void awaitStored(UUID agent, int segment, long n) throws Exception {
        Path file = archive.segmentPath(agent, segment);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((!Files.exists(file) || Files.size(file) < n) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(Files.size(file)).as("stored bytes of " + file).isGreaterThanOrEqualTo(n);
    }

    @Test
    void connectionsBeyondTheLimitAreClosedUnreadWhileTheOthersAreServed() throws Exception {
        start(ReceiverLimits.defaults().withMaxConnections(2));
        TestStreams.Built a = TestStreams.build(new UUID(1, 1), 1, 6, true);
        TestStreams.Built b = TestStreams.build(new UUID(2, 2), 2, 6, true);
        try (Socket sa = Peers.connect(receiver); Socket sb = Peers.connect(receiver)) {
            int half = a.frameOffsets.get(3);
            sa.getOutputStream().write(a.bytes, 0, half);
            sb.getOutputStream().write(b.bytes, 0, b.frameOffsets.get(3));
            awaitStored(new UUID(1, 1), 0, half);
            awaitStored(new UUID(2, 2), 0, b.frameOffsets.get(3));
            try (Socket extra = Peers.connect(receiver)) {
                assertThat(events.await("refused " + Peers.name(extra))).isEqualTo("refused " + Peers.name(extra)
                        + ": connection closed unread: 2 connections are being served (limit max-connections)");
                assertThat(closedByReceiver(extra, 5_000)).as("extra connection closed").isTrue();
            }
            sa.getOutputStream().write(a.bytes, half, a.bytes.length - half);
            sb.getOutputStream().write(b.bytes, b.frameOffsets.get(3), b.bytes.length - b.frameOffsets.get(3));
        }
        events.awaitCount("closed ", 2);
        assertThat(Files.readAllBytes(archive.segmentPath(new UUID(1, 1), 0))).isEqualTo(a.bytes);
        assertThat(Files.readAllBytes(archive.segmentPath(new UUID(2, 2), 0))).isEqualTo(b.bytes);
        // with room again, a new connection is served
        try (Socket again = Peers.connect(receiver)) {
            again.getOutputStream().write(a.bytes);
        }
        events.awaitCount("closed ", 3);
        assertThat(Files.readAllBytes(archive.segmentPath(new UUID(1, 1), 1))).isEqualTo(a.bytes);
        assertThat(receiver.status().refusedConnections()).isEqualTo(1);
        assertThat(receiver.status().failedConnections()).isZero();
    }

    @Test
    void aFrameLongerThanTheLimitClosesThatConnectionOnlyBeforeItsBytesArrive() throws Exception {
        start(ReceiverLimits.defaults().withMaxFrameBytes(64 << 10));
        UUID goodAgent = new UUID(3, 3);
        TestStreams.Built good = TestStreams.build(goodAgent, 3, 8, true);
        try (Socket g = Peers.connect(receiver); Socket bad = Peers.connect(receiver)) {
            int half = good.frameOffsets.get(4) + 20;
            g.getOutputStream().write(good.bytes, 0, half);
            byte[] b = TestStreams.build(new UUID(4, 4), 4, 1, false).bytes;
            int second = Frames.offsets(b).get(1);
            Frames.putU32(b, second + Format.FRAME_OFF_LENGTH, 1 << 20); // within the format's 64 MiB, above the receiver's limit
            bad.getOutputStream().write(b, 0, second + 12);
            String line = events.await("failed " + Peers.name(bad));
            assertThat(line).isEqualTo("failed " + Peers.name(bad) + " offset " + (second + Format.FRAME_OFF_LENGTH)
                    + ": frame length 1048576 out of range [62, 65536] (this input's limit; the format allows up to " + Format.MAX_FRAME_BYTES
                    + "); receiver limit max-frame-bytes [frames 1]");
            assertThat(events.summaries.get(Peers.name(bad)).agentId()).isEqualTo(new UUID(4, 4));
            assertThat(closedByReceiver(bad, 5_000)).as("oversized connection closed").isTrue();
            g.getOutputStream().write(good.bytes, half, good.bytes.length - half);
        }
        events.await("closed ");
        assertThat(Files.readAllBytes(archive.segmentPath(goodAgent, 0))).isEqualTo(good.bytes);
    }

    @Test
    void aSilentConnectionIsClosedAfterTheIdleTimeoutWhileABusyOneIsNot() throws Exception {
        start(ReceiverLimits.defaults().withIdleTimeout(Duration.ofMillis(400)));
        UUID quietAgent = new UUID(5, 5);
        TestStreams.Built quiet = TestStreams.build(quietAgent, 5, 3, true);
        TestStreams.Built busy = TestStreams.build(new UUID(6, 6), 6, 12, true);
        try (Socket q = Peers.connect(receiver); Socket silentFromTheStart = Peers.connect(receiver); Socket b = Peers.connect(receiver)) {
            int cut = quiet.frameOffsets.get(2) + 10; // two whole frames, then silence inside the third
            q.getOutputStream().write(quiet.bytes, 0, cut);
            long started = System.nanoTime();
            // the busy peer sends a frame every 100 ms, 1.2 s in all: never idle for 400 ms
            for (int i = 0; i < busy.frameOffsets.size(); i++) {
                b.getOutputStream().write(busy.bytes, i == 0 ? 0 : busy.frameOffsets.get(i), busy.endOfFrame(i) - (i == 0 ? 0 : busy.frameOffsets.get(i)));
                Thread.sleep(100);
            }
            String line = events.await("failed " + Peers.name(q));
            assertThat(line).matches("failed " + java.util.regex.Pattern.quote(Peers.name(q)) + " offset " + cut
                    + ": no data for [0-9.]+ s \\(limit idle-timeout 0\\.4 s\\); partial frame of 10 bytes discarded \\[frames 2\\]");
            assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
            assertThat(events.await("failed " + Peers.name(silentFromTheStart))).contains("offset 0: no data for ").endsWith("(limit idle-timeout 0.4 s) [frames 0]");
            assertThat(closedByReceiver(q, 5_000)).isTrue();
            assertThat(closedByReceiver(silentFromTheStart, 5_000)).isTrue();
        }
        assertThat(Files.readAllBytes(archive.segmentPath(quietAgent, 0))).isEqualTo(java.util.Arrays.copyOf(quiet.bytes, quiet.frameOffsets.get(2)));
        events.await("closed ");
        assertThat(Files.readAllBytes(archive.segmentPath(new UUID(6, 6), 0))).isEqualTo(busy.bytes);
    }

    @Test
    void agentsBeyondTheLimitAreRefusedAtTheirFirstFrameAndKnownAgentsStayWelcome() throws Exception {
        start(ReceiverLimits.defaults().withMaxAgents(2));
        for (int i = 1; i <= 2; i++) {
            try (Socket s = Peers.connect(receiver)) {
                s.getOutputStream().write(TestStreams.build(new UUID(10, i), i, 2, true).bytes);
            }
            events.awaitCount("closed ", i);
        }
        UUID third = new UUID(10, 3);
        try (Socket s = Peers.connect(receiver)) {
            s.getOutputStream().write(TestStreams.build(third, 3, 2, true).bytes);
            assertThat(events.await("failed " + Peers.name(s))).isEqualTo("failed " + Peers.name(s) + " offset " + (12 + Format.FRAME_OFF_AGENT_MSB)
                    + ": agent " + third + " refused: this receiver already stores 2 agents (limit max-agents); nothing of it stored [frames 0]");
            assertThat(closedByReceiver(s, 5_000)).isTrue();
        }
        assertThat(out.resolve(third.toString())).doesNotExist();
        TestStreams.Built again = TestStreams.build(new UUID(10, 1), 11, 2, true);
        try (Socket s = Peers.connect(receiver)) {
            s.getOutputStream().write(again.bytes);
        }
        events.awaitCount("closed ", 3);
        assertThat(Files.readAllBytes(archive.segmentPath(new UUID(10, 1), 1))).isEqualTo(again.bytes);
        assertThat(receiver.status().agents()).hasSize(2);
    }

    @Test
    void framesTheAgentSealedButTheReceiverNeverGotAreReportedPerConnectionAndPerAgent() throws Exception {
        start(ReceiverLimits.defaults());
        UUID agent = new UUID(20, 20);
        RecordBytes defs = new RecordBytes().probeDef(1, "a.B.c", "()V").threadDef(11, "w");
        // first connection: sequences 0, 1, 2, 3, then it breaks (no trailer)
        StreamBytes first = new StreamBytes(agent, "h", 1);
        first.data(0, 1, 1, 0L, defs);
        for (int seq = 1; seq <= 3; seq++) {
            first.data(seq, 1, 1, 11L, new RecordBytes().enter(1, seq).exit(1, seq + 1));
        }
        // second connection after a reconnect: registry at 6, data 7 and 9, trailer 10 (4, 5 and 8 never arrived)
        StreamBytes second = new StreamBytes(agent, "h", 1);
        second.data(6, 1, 1, 0L, defs);
        second.data(7, 1, 1, 11L, new RecordBytes().enter(1, 7).exit(1, 8));
        second.data(9, 1, 1, 11L, new RecordBytes().enter(1, 9).exit(1, 10));
        second.trailer(10, 1, 1, 20, 20);
        String p1;
        String p2;
        try (Socket s = Peers.connect(receiver)) {
            p1 = Peers.name(s);
            s.getOutputStream().write(first.toBytes());
        }
        events.await("closed " + p1);
        try (Socket s = Peers.connect(receiver)) {
            p2 = Peers.name(s);
            s.getOutputStream().write(second.toBytes());
        }
        events.await("closed " + p2);
        StreamSummary one = events.summaries.get(p1);
        StreamSummary two = events.summaries.get(p2);
        assertThat(one.describe()).isEqualTo("agent " + agent + ", 4 frames, " + one.bytes() + " bytes, sequences 0..3, none missing, no trailer");
        assertThat(two.describe()).isEqualTo("agent " + agent + ", 4 frames, " + two.bytes()
                + " bytes, sequences 6..10, 1 frames missing (sequence gaps), trailer received");
        assertThat(two.gapless()).isFalse();
        ReceiverStatus.AgentStatus a = receiver.status().agents().get(agent);
        assertThat(a).isEqualTo(new ReceiverStatus.AgentStatus(2, 8, one.bytes() + two.bytes(), 0, 10, 3, true));
        assertThat(a.describe()).isEqualTo("2 connections, 8 frames, " + a.bytes() + " bytes, sequences 0..10, 3 frames missing (sequence gaps), "
                + "trailer received (a gap is a frame lost in flight, or one the writer re-sent under a new number after reconnecting:"
                + " compare the trailer's written count with the records read)");
    }

    @Test
    void limitsOutsideTheirRangeAreRefusedNamingTheLimit() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReceiverLimits.defaults().withMaxFrameBytes(Format.MAX_FRAME_BYTES + 1))
                .hasMessage("max-frame-bytes must be between 62 and 67108864 (the format's limit), got 67108865");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReceiverLimits.defaults().withMaxConnections(0))
                .hasMessage("max-connections must be at least 1, got 0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReceiverLimits.defaults().withMaxAgents(0))
                .hasMessage("max-agents must be at least 1, got 0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReceiverLimits.defaults().withIdleTimeout(Duration.ZERO))
                .hasMessage("idle-timeout must be positive, got PT0S");
    }
}
