package io.sonde.collector.receive;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.collector.archive.Archive;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeReader;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.StreamBytes;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The receiver over real TCP on 127.0.0.1, storing into real files. */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang fails instead of blocking the build
class ReceiverTest {
    @TempDir
    Path out;

    private final Events events = new Events();
    private Receiver receiver;
    private Archive archive;

    private Receiver start() throws IOException {
        archive = new Archive(out);
        receiver = Receiver.start(0, archive, events);
        return receiver;
    }

    @AfterEach
    void stop() {
        if (receiver != null) {
            receiver.abort();
        }
    }

    private Socket connect() throws IOException {
        return Peers.connect(receiver);
    }

    private static String peer(Socket s) {
        return Peers.name(s);
    }

    /** Sends bytes [from, to) in random chunks. */
    private static void send(Socket s, byte[] b, int from, int to, Random rnd) throws IOException {
        OutputStream o = s.getOutputStream();
        int p = from;
        while (p < to) {
            int n = Math.min(to - p, 1 + rnd.nextInt(300));
            o.write(b, p, n);
            o.flush();
            p += n;
        }
    }

    @Test
    void concurrentClientsAreStoredExactlyOneFilePerConnectionPerAgent() throws Exception {
        start();
        int clients = 8;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<UUID> agents = new ArrayList<>();
        List<byte[]> sent = new ArrayList<>();
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            UUID agent = new UUID(0x1000 + i, i);
            TestStreams.Built b = TestStreams.build(agent, 100 + i, 20 + i, true);
            agents.add(agent);
            sent.add(b.bytes);
            long seed = i;
            done.add(pool.submit(() -> {
                try (Socket s = connect()) {
                    send(s, b.bytes, 0, b.bytes.length, new Random(seed));
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        events.awaitCount("closed ", clients);
        for (int i = 0; i < clients; i++) {
            Path file = archive.segmentPath(agents.get(i), 0);
            assertThat(Files.readAllBytes(file)).as("file of client " + i).isEqualTo(sent.get(i));
            try (SondeReader r = SondeReader.open(file)) {
                while (r.next()) {
                    // all records decode
                }
                assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
            }
        }
        ReceiverStatus st = receiver.status();
        assertThat(st.totalConnections()).isEqualTo(clients);
        assertThat(st.failedConnections()).isZero();
        assertThat(st.openConnections()).isZero();
        assertThat(st.agents()).hasSize(clients);
        for (int i = 0; i < clients; i++) {
            ReceiverStatus.AgentStatus a = st.agents().get(agents.get(i));
            assertThat(a.connections()).isEqualTo(1);
            assertThat(a.bytes()).isEqualTo(sent.get(i).length - 12);
            assertThat(a.frames()).isEqualTo(1 + 20 + i + 1);
        }
        assertThat(events.lines).filteredOn(l -> l.startsWith("failed")).isEmpty();
    }

    @Test
    void badClientsFailWithPeerAndOffsetWhileAGoodClientCompletes() throws Exception {
        start();
        UUID goodAgent = new UUID(7, 7);
        TestStreams.Built good = TestStreams.build(goodAgent, 7, 10, true);
        Random rnd = new Random(1);
        try (Socket g = connect()) {
            int half = good.frameOffsets.get(5) + 17; // stop inside a frame
            send(g, good.bytes, 0, half, rnd);

            // 1. garbage
            try (Socket bad = connect()) {
                bad.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String line = events.await("failed " + peer(bad));
                assertThat(line).isEqualTo("failed " + peer(bad) + " offset 0: not a Sonde stream: bad magic byte 0x47 (expected 0x89) [frames 0]");
            }
            // 2. a stream of another major version
            try (Socket bad = connect()) {
                bad.getOutputStream().write(StreamBytes.streamHeader(3, 0)); // 2.0 is the current version
                assertThat(events.await("failed " + peer(bad))).contains("offset 8: unsupported format version 3.0");
            }
            // 3. a corrupt frame after two good ones: the two are kept, the bad one is not
            UUID crcAgent = new UUID(9, 9);
            TestStreams.Built crc = TestStreams.build(crcAgent, 9, 4, true);
            byte[] corrupt = crc.bytes.clone();
            int third = crc.frameOffsets.get(2);
            corrupt[third + 70] ^= 0x20;
            try (Socket bad = connect()) {
                send(bad, corrupt, 0, corrupt.length, rnd);
                String line = events.await("failed " + peer(bad));
                assertThat(line).startsWith("failed " + peer(bad) + " offset " + third + ": CRC mismatch in frame").endsWith("[frames 2]");
            }
            assertThat(Files.readAllBytes(archive.segmentPath(crcAgent, 0))).isEqualTo(Arrays.copyOf(crc.bytes, third));
            // 4. a frame length out of range
            try (Socket bad = connect()) {
                byte[] b = TestStreams.build(new UUID(5, 5), 5, 1, false).bytes;
                Frames.putU32(b, 12 + 4, 0x7FFF_FFFF);
                bad.getOutputStream().write(b);
                assertThat(events.await("failed " + peer(bad))).contains("offset 16: frame length 2147483647 out of range");
            }
            // the good client, still connected, finishes its stream
            send(g, good.bytes, half, good.bytes.length, rnd);
        }
        events.await("closed 127.0.0.1");
        assertThat(Files.readAllBytes(archive.segmentPath(goodAgent, 0))).isEqualTo(good.bytes);
        assertThat(receiver.status().failedConnections()).isEqualTo(4);
        assertThat(receiver.status().agents().get(goodAgent).frames()).isEqualTo(good.frameOffsets.size());
    }

    @Test
    void clientDyingMidFrameLeavesAFileReadableUpToTheLastWholeFrame() throws Exception {
        start();
        UUID agent = new UUID(3, 3);
        TestStreams.Built b = TestStreams.build(agent, 3, 6, true);
        int fifth = b.frameOffsets.get(4);
        Socket s = connect();
        send(s, b.bytes, 0, fifth + 100, new Random(3));
        String peer = peer(s);
        s.setSoLinger(true, 0); // dies: reset, not an orderly close
        s.close();
        String line = events.await("failed " + peer);
        // A reset discards what the receiver's kernel had not yet handed over, so the file ends at
        // some whole frame at or before the fifth; never inside one.
        Path file = archive.segmentPath(agent, 0);
        byte[] stored = Files.readAllBytes(file);
        assertThat(b.frameOffsets).contains(stored.length);
        assertThat(stored.length).isLessThanOrEqualTo(fifth);
        assertThat(stored).isEqualTo(Arrays.copyOf(b.bytes, stored.length));
        assertThat(line).startsWith("failed " + peer + " offset ").contains("I/O error");
        try (SondeReader r = SondeReader.open(file)) {
            int n = 0;
            while (r.next()) {
                n++;
            }
            assertThat(n).isPositive();
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.INCOMPLETE);
            assertThat(r.end().message()).isEqualTo("stream ended without trailer at offset " + stored.length);
        }
    }

    @Test
    void orderlyCloseMidFrameIsReportedAsTruncated() throws Exception {
        start();
        UUID agent = new UUID(4, 4);
        TestStreams.Built b = TestStreams.build(agent, 4, 3, false);
        int second = b.frameOffsets.get(1);
        Socket s = connect();
        send(s, b.bytes, 0, second + 30, new Random(4));
        String peer = peer(s);
        s.close();
        String line = events.await("failed " + peer);
        assertThat(line).isEqualTo("failed " + peer + " offset " + (second + 30) + ": input ended inside the frame at offset " + second
                + ", which declares " + (b.endOfFrame(1) - second) + " bytes; only 30 available; partial frame discarded [frames 1]");
        assertThat(Files.readAllBytes(archive.segmentPath(agent, 0))).isEqualTo(Arrays.copyOf(b.bytes, second));
    }

    @Test
    void reconnectingAgentGetsTheNextSegmentAndTheFolderReadsAsOneStream() throws Exception {
        start();
        UUID agent = new UUID(6, 6);
        TestStreams.Built first = TestStreams.build(agent, 61, 3, false);
        TestStreams.Built second = TestStreams.build(agent, 62, 2, true, first.frameOffsets.size());
        try (Socket s = connect()) {
            send(s, first.bytes, 0, first.bytes.length, new Random(6));
        }
        events.await("closed ");
        try (Socket s = connect()) {
            send(s, second.bytes, 0, second.bytes.length, new Random(6));
        }
        events.awaitCount("closed ", 2);
        assertThat(Files.readAllBytes(archive.segmentPath(agent, 0))).isEqualTo(first.bytes);
        assertThat(Files.readAllBytes(archive.segmentPath(agent, 1))).isEqualTo(second.bytes);
        try (SondeReader r = SondeReader.open(out.resolve(agent.toString()))) {
            long data = 0;
            while (r.next()) {
                data += io.sonde.format.Format.isDataRecord(r.type()) ? 1 : 0;
            }
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(data).isEqualTo(first.dataRecords + second.dataRecords);
        }
        // a restarted receiver continues the numbering instead of overwriting
        receiver.stop();
        archive = new Archive(out);
        receiver = Receiver.start(0, archive, events);
        try (Socket s = connect()) {
            send(s, first.bytes, 0, first.bytes.length, new Random(6));
        }
        events.awaitCount("closed ", 3);
        assertThat(Files.readAllBytes(archive.segmentPath(agent, 2))).isEqualTo(first.bytes);
    }

    @Test
    void abortedReceiverLeavesReadableFiles() throws Exception {
        start();
        UUID agent = new UUID(8, 8);
        TestStreams.Built b = TestStreams.build(agent, 8, 30, true);
        Socket s = connect();
        int cut = b.frameOffsets.get(12) + 40;
        send(s, b.bytes, 0, cut, new Random(8));
        // wait until the receiver stored the twelve whole frames, then kill it mid-frame
        Path file = archive.segmentPath(agent, 0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((!Files.exists(file) || Files.size(file) < b.frameOffsets.get(12)) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        receiver.abort();
        s.close();
        assertThat(Files.readAllBytes(file)).isEqualTo(Arrays.copyOf(b.bytes, b.frameOffsets.get(12)));
        try (SondeReader r = SondeReader.open(file)) {
            while (r.next()) {
                // read all
            }
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.INCOMPLETE);
            assertThat(r.end().offset()).isEqualTo((long) b.frameOffsets.get(12));
        }
        assertThat(events.lines).noneMatch(l -> l.startsWith("closed") || l.startsWith("failed"));
    }

    @Test
    void gracefulStopFinishesTheCurrentFrameAndClosesFiles() throws Exception {
        start();
        UUID agent = new UUID(10, 10);
        TestStreams.Built b = TestStreams.build(agent, 10, 5, true);
        try (Socket s = connect()) {
            int third = b.frameOffsets.get(3);
            send(s, b.bytes, 0, third + 50, new Random(10));
            Path file = archive.segmentPath(agent, 0);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while ((!Files.exists(file) || Files.size(file) < third) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread stopper = new Thread(receiver::stop);
            stopper.start();
            Thread.sleep(200);
            // the frame in progress is completed and stored; the connection then closes at its boundary
            send(s, b.bytes, third + 50, b.endOfFrame(3), new Random(10));
            stopper.join(10_000);
            assertThat(stopper.isAlive()).isFalse();
            assertThat(Files.readAllBytes(file)).isEqualTo(Arrays.copyOf(b.bytes, b.endOfFrame(3)));
        }
        assertThat(events.await("closed ")).contains("frames 4");
        assertThat(receiver.status().openConnections()).isZero();
        try (Socket late = new Socket()) {
            boolean refused = false;
            try {
                late.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), receiver.port()), 2000);
            } catch (IOException e) {
                refused = true;
            }
            assertThat(refused).as("connect after stop").isTrue();
        }
    }

    @Test
    void frameOfAnotherAgentOnAConnectionIsRejected() throws Exception {
        start();
        UUID a = new UUID(11, 11);
        TestStreams.Built b = TestStreams.build(a, 11, 1, false);
        byte[] other = new StreamBytes(new UUID(12, 12), "h", 1).dataFrame(5, 0, 0);
        try (Socket s = connect()) {
            s.getOutputStream().write(b.bytes);
            s.getOutputStream().write(other);
            String line = events.await("failed " + peer(s));
            assertThat(line).contains("offset " + (b.bytes.length + 16) + ": frame of agent 00000000-0000-000c-0000-00000000000c");
        }
        assertThat(Files.readAllBytes(archive.segmentPath(a, 0))).isEqualTo(b.bytes);
    }

    @Test
    void emptyConnectionStoresNothing() throws Exception {
        start();
        try (Socket s = connect()) {
            String p = peer(s);
            s.shutdownOutput();
            assertThat(events.await("closed " + p)).isEqualTo("closed " + p + " agent null frames 0 bytes 0");
        }
        try (var files = Files.list(out)) {
            assertThat(files).isEmpty();
        }
    }

}
