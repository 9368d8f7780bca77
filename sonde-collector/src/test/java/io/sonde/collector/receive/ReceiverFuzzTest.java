package io.sonde.collector.receive;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.collector.archive.Archive;
import io.sonde.collector.archive.FrameHandler;
import io.sonde.format.Format;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.GoldenFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded, reproducible fuzzing of what the receiver reads from a socket: the golden streams with
 * bit flips (with and without the frame's CRC patched so that header fields get past it),
 * truncations, inserted bytes, extreme frame lengths, duplicated and spliced frames, and garbage.
 * Thousands go through the per-connection code on in-memory streams, a few dozen over real
 * loopback sockets. For each input: the connection ends (within a bound) with exactly one closed
 * or failed event and never an internal error; what was stored is exactly the input's prefix of
 * whole frames the event reports; the frame buffer never exceeded max-frame-bytes; and the
 * receiver stores a clean stream intact afterwards. Set {@code -Dsonde.fuzz.seed=N} to replay.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReceiverFuzzTest {
    private static final long SEED = Long.getLong("sonde.fuzz.seed", 0x5EC0_11EC7L);
    private static final int MAX_FRAME = 4096;
    private static final int IN_MEMORY_CASES = 3000;
    private static final int SOCKET_CASES = 40;
    private static final List<byte[]> BASES = List.of(GoldenFiles.bytes("full.sonde"), GoldenFiles.bytes("minimal.sonde"),
            GoldenFiles.bytes("rolled/sonde-c0ffee00-0000-4000-8000-00000000beef-000000.sonde"),
            GoldenFiles.bytes("rolled/sonde-c0ffee00-0000-4000-8000-00000000beef-000001.sonde"));

    @TempDir
    Path out;

    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fuzz-connection");
        t.setDaemon(true);
        return t;
    });
    private final List<Throwable> uncaught = new ArrayList<>();
    private Thread.UncaughtExceptionHandler previous;
    private final List<Receiver> receivers = new ArrayList<>();

    @BeforeEach
    void watchThreads() {
        previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            synchronized (uncaught) {
                uncaught.add(e);
            }
        });
    }

    @AfterEach
    void cleanUp() {
        receivers.forEach(Receiver::abort);
        worker.shutdownNow();
        Thread.setDefaultUncaughtExceptionHandler(previous);
    }

    private Receiver start(FrameHandler handler, Events events, Duration idle) throws IOException {
        ReceiverLimits limits = ReceiverLimits.defaults().withMaxFrameBytes(MAX_FRAME).withMaxAgents(50).withIdleTimeout(idle);
        Receiver r = Receiver.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), handler, events, limits);
        receivers.add(r);
        return r;
    }

    @Test
    void inMemoryStreamsThroughThePerConnectionCode() throws Exception {
        Random rnd = new Random(SEED);
        MemoryHandler stored = new MemoryHandler();
        Events events = new Events();
        Receiver receiver = start(stored, events, Duration.ofSeconds(5));
        int failedCount = 0;
        for (int i = 0; i < IN_MEMORY_CASES; i++) {
            Mutant m = mutate(rnd);
            String peer = "fuzz-" + i;
            Future<Connection> f = worker.submit(() -> receiver.serve(new ByteArrayInputStream(m.bytes), peer));
            Connection c;
            try {
                c = f.get(5, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError(replay(i, m) + ": connection code still running after 5 s");
            }
            String what = replay(i, m);
            assertThat(c.bufferCapacity()).as(what + ": frame buffer").isLessThanOrEqualTo(MAX_FRAME);
            String event = checkEnded(events, peer, what);
            failedCount += event.startsWith("failed") ? 1 : 0;
            StreamSummary s = events.summaries.get(peer);
            byte[] kept = s.target() == null ? new byte[0] : stored.bytes(s.target());
            checkStoredPrefix(m.bytes, s, kept, what);
        }
        assertThat(uncaught).isEmpty();
        assertThat(failedCount).as("mutations that the receiver rejected").isBetween(IN_MEMORY_CASES / 4, IN_MEMORY_CASES - 1);
        assertThat(receiver.status().openConnections()).isZero();
        // and the receiver still stores a clean stream over a real socket
        sendAndCheckClean(receiver, events, null, stored);
    }

    @Test
    void mutatedStreamsOverLoopbackSockets() throws Exception {
        Random rnd = new Random(SEED + 1);
        Events events = new Events();
        Archive archive = new Archive(out);
        Receiver receiver = start(archive, events, Duration.ofMillis(500));
        for (int i = 0; i < SOCKET_CASES; i++) {
            Mutant m = mutate(rnd);
            boolean keepOpen = i % 20 == 7; // a peer that goes silent without closing: the idle timeout ends it
            String what = replay(i, m) + (keepOpen ? " (kept open)" : "");
            String peer;
            try (Socket s = Peers.connect(receiver)) {
                peer = Peers.name(s);
                sendInChunks(s, m.bytes, rnd);
                if (!keepOpen) {
                    s.shutdownOutput();
                }
                String event = checkEnded(events, peer, what);
                if (keepOpen) { // no end of input: only bad bytes or the idle timeout can end it
                    assertThat(event).as(what).startsWith("failed").doesNotContain("I/O error");
                }
            }
            StreamSummary sm = events.summaries.get(peer);
            byte[] kept = sm.target() == null ? new byte[0] : Files.readAllBytes(Path.of(sm.target()));
            checkStoredPrefix(m.bytes, sm, kept, what);
        }
        assertThat(uncaught).isEmpty();
        sendAndCheckClean(receiver, events, archive, null);
    }

    /** Waits (bounded) for the connection's single end event; it must not be an internal error. */
    private static String checkEnded(Events events, String peer, String what) throws InterruptedException {
        String event;
        try {
            event = events.await("failed " + peer + " ", "closed " + peer + " ");
        } catch (AssertionError e) {
            throw new AssertionError(what + ": " + e.getMessage(), e);
        }
        assertThat(event).as(what).doesNotContain("internal error");
        assertThat(events.lines.stream().filter(l -> l.startsWith("failed " + peer + " ") || l.startsWith("closed " + peer + " ")))
                .as(what + ": end events").hasSize(1);
        return event;
    }

    /** The stored bytes are the stream header and then exactly the whole frames the summary counts, as sent. */
    private static void checkStoredPrefix(byte[] sent, StreamSummary s, byte[] kept, String what) {
        if (s.target() == null) {
            assertThat(s.frames()).as(what).isZero();
            return;
        }
        assertThat(kept.length).as(what + ": stored length").isEqualTo(Format.STREAM_HEADER_BYTES + s.bytes());
        assertThat(kept).as(what + ": stored bytes").isEqualTo(Arrays.copyOf(sent, kept.length));
    }

    private void sendAndCheckClean(Receiver receiver, Events events, Archive archive, MemoryHandler memory) throws Exception {
        byte[] clean = BASES.get(0);
        String peer;
        try (Socket s = Peers.connect(receiver)) {
            peer = Peers.name(s);
            s.getOutputStream().write(clean);
        }
        assertThat(events.await("closed " + peer + " ")).endsWith("frames 4 bytes " + (clean.length - 12));
        String target = events.summaries.get(peer).target();
        byte[] kept = archive != null ? Files.readAllBytes(Path.of(target)) : memory.bytes(target);
        assertThat(kept).isEqualTo(clean);
    }

    private static void sendInChunks(Socket s, byte[] b, Random rnd) {
        try {
            OutputStream o = s.getOutputStream();
            for (int p = 0; p < b.length;) {
                int n = Math.min(b.length - p, 1 + rnd.nextInt(200));
                o.write(b, p, n);
                o.flush();
                p += n;
            }
        } catch (IOException e) {
            // the receiver closed the connection early (it rejected the input): expected for many mutants
        }
    }

    // ---- mutations

    /** A mutated input and the steps that made it (for the failure message). */
    record Mutant(byte[] bytes, String steps) {}

    private static String replay(int i, Mutant m) {
        return "case " + i + " (seed " + SEED + ", " + m.steps + ")";
    }

    static Mutant mutate(Random rnd) {
        int base = rnd.nextInt(BASES.size());
        byte[] b = BASES.get(base).clone();
        List<Integer> frames = Frames.offsets(b);
        StringBuilder steps = new StringBuilder("base " + base);
        if (rnd.nextInt(100) < 3) {
            byte[] garbage = new byte[rnd.nextInt(300)];
            rnd.nextBytes(garbage);
            return new Mutant(garbage, "garbage of " + garbage.length + " bytes");
        }
        if (rnd.nextInt(100) < 30) { // extreme frame length
            int f = frames.get(rnd.nextInt(frames.size()));
            int[] lengths = {0, 1, 61, 62, 63, MAX_FRAME, MAX_FRAME + 1, Format.MAX_FRAME_BYTES, Format.MAX_FRAME_BYTES + 1, 0x7FFF_FFFF, -1, rnd.nextInt()};
            int len = lengths[rnd.nextInt(lengths.length)];
            Frames.putU32(b, f + Format.FRAME_OFF_LENGTH, len);
            steps.append(", length ").append(Integer.toUnsignedString(len)).append(" at ").append(f);
        }
        if (rnd.nextInt(100) < 30) { // header or payload bits changed behind a valid CRC
            int f = frames.get(rnd.nextInt(frames.size()));
            int len = Frames.u32(b, f + Format.FRAME_OFF_LENGTH);
            if (len > 12 && (long) f + len <= b.length) {
                int p = f + 12 + rnd.nextInt(Math.min(len - 12, 80));
                b[p] ^= (byte) (1 << rnd.nextInt(8));
                Frames.fixCrc(b, f);
                steps.append(", flip at ").append(p).append(" with CRC fixed");
            }
        }
        if (rnd.nextInt(100) < 30) { // raw bit flips
            int n = 1 + rnd.nextInt(4);
            for (int k = 0; k < n; k++) {
                int p = rnd.nextInt(b.length);
                b[p] ^= (byte) (1 << rnd.nextInt(8));
                steps.append(", flip at ").append(p);
            }
        }
        if (rnd.nextInt(100) < 15) { // a frame repeated, or one of another stream (another agent) spliced in
            byte[] source = rnd.nextBoolean() ? BASES.get(base) : BASES.get(rnd.nextInt(BASES.size()));
            List<Integer> so = Frames.offsets(source);
            int k = rnd.nextInt(so.size());
            int from = so.get(k);
            int to = k + 1 < so.size() ? so.get(k + 1) : source.length;
            int at = frames.get(rnd.nextInt(frames.size()));
            b = splice(b, at, Arrays.copyOfRange(source, from, to));
            steps.append(", frame of ").append(from).append("..").append(to).append(" inserted at ").append(at);
        }
        if (rnd.nextInt(100) < 15) { // random bytes inserted
            byte[] extra = new byte[1 + rnd.nextInt(64)];
            rnd.nextBytes(extra);
            int at = rnd.nextInt(b.length + 1);
            b = splice(b, at, extra);
            steps.append(", ").append(extra.length).append(" bytes inserted at ").append(at);
        }
        if (rnd.nextInt(100) < 30) { // truncated
            int at = rnd.nextInt(b.length + 1);
            b = Arrays.copyOf(b, at);
            steps.append(", cut at ").append(at);
        }
        return new Mutant(b, steps.toString());
    }

    private static byte[] splice(byte[] b, int at, byte[] extra) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.write(b, 0, at);
        o.writeBytes(extra);
        o.write(b, at, b.length - at);
        return o.toByteArray();
    }

    /** Keeps each connection's frames in memory (target = peer) so that volume fuzzing does not touch the disk. */
    static final class MemoryHandler implements FrameHandler {
        private final Map<String, ByteArrayOutputStream> streams = new ConcurrentHashMap<>();

        byte[] bytes(String target) {
            return streams.get(target).toByteArray();
        }

        @Override
        public StreamSink open(UUID agentId, byte[] streamHeader, String peer) {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            o.writeBytes(streamHeader);
            streams.put(peer, o);
            return new StreamSink() {
                @Override
                public void frame(byte[] frame, int length) {
                    o.write(frame, 0, length);
                }

                @Override
                public void close() {}

                @Override
                public void abort() {}

                @Override
                public String target() {
                    return peer;
                }
            };
        }
    }
}
