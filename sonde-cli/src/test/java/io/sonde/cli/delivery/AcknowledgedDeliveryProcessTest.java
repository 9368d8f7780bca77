package io.sonde.cli.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.cli.SondeCommand;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import io.sonde.format.stream.DeliveryCodec;
import io.sonde.format.stream.DeliveryMessage;
import io.sonde.format.stream.DeliveryProtocol;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acknowledged delivery with real processes: {@code sonde collector --token-file} in its own JVM,
 * three applications (the API with {@code writer=tcp}, {@code tcp.token.file}) in theirs, the
 * collector killed with SIGKILL mid-stream and restarted on the same port and folder. At the end
 * every record an application produced is in the archive or counted as dropped in its trailer,
 * and no frame is stored twice (read back with sonde-format's reader and the frame headers). An
 * application with a wrong token is refused, with the reason on both sides, and garbage and a half
 * frame on the socket end their own connections only, while the others go on.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AcknowledgedDeliveryProcessTest {
    static final int AGENTS = 3;
    static final int THREADS = 2;
    static final int CALLS = 30_000; // per thread; a 1 ms pause every 10 calls: a stream of about 3-6 s
    static final Pattern LISTENING = Pattern.compile("collector listening on 127\\.0\\.0\\.1:(\\d+), .*");
    static final Pattern COUNTS = Pattern.compile("counts produced=(\\d+) written=(\\d+) dropped=(\\d+) .*");

    @TempDir
    Path dir;

    @Test
    void aCollectorKilledAndRestartedMidStreamLosesNothingAndStoresNothingTwice() throws Exception {
        Path out = dir.resolve("archive");
        Path token = privateFile(dir.resolve("token"), "s3cret-token");
        Path wrong = privateFile(dir.resolve("wrong"), "not-the-token");
        List<JvmProcess> agents = new ArrayList<>();
        JvmProcess first = startCollector(out, 0, token);
        JvmProcess second = null;
        JvmProcess intruder = null;
        try {
            int port = Integer.parseInt(matching(LISTENING, first.awaitLine("collector listening on ", 60)).group(1));
            for (int i = 0; i < AGENTS; i++) {
                agents.add(JvmProcess.start("agent-" + i, DeliveryAgentMain.class, String.valueOf(port), token.toString(),
                        String.valueOf(CALLS), String.valueOf(THREADS), "10"));
            }
            List<UUID> ids = new ArrayList<>();
            for (JvmProcess a : agents) {
                ids.add(UUID.fromString(a.awaitLine("agent ", 60).substring(6).trim()));
            }
            awaitArchived(out, ids, 32 * 1024); // every agent is streaming
            first.kill(); // mid-stream
            Thread.sleep(500); // the agents' connections break; their reconnects are refused
            second = startCollectorOnPort(out, port, token);
            intruder = JvmProcess.start("intruder", DeliveryAgentMain.class, String.valueOf(port), wrong.toString(), "3000", "1", "10",
                    "shutdown.timeout.ms=3000");
            UUID intruderId = UUID.fromString(intruder.awaitLine("agent ", 60).substring(6).trim());
            // garbage and a half frame on the socket while the agents stream: those connections fail, the agents go on
            try (Socket garbage = new Socket(InetAddress.getLoopbackAddress(), port)) {
                garbage.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            try (Socket half = new Socket(InetAddress.getLoopbackAddress(), port)) {
                byte[] hello = new DeliveryCodec(UUID.randomUUID(), 1, "").hello(new DeliveryMessage.Hello("s3cret-token", -1, 0));
                half.getOutputStream().write(DeliveryProtocol.streamHeader());
                half.getOutputStream().write(hello, 0, hello.length / 2);
            }

            Map<UUID, long[]> counts = new HashMap<>();
            for (int i = 0; i < AGENTS; i++) {
                Matcher m = matching(COUNTS, agents.get(i).awaitLine("counts ", 180));
                assertThat(agents.get(i).awaitExit(60)).as("agent %d exit; output:%n%s", i, agents.get(i).output()).isZero();
                counts.put(ids.get(i), new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
            }
            intruder.awaitLine("counts ", 60);
            assertThat(intruder.awaitExit(30)).isZero();
            String intruderOutput = intruder.output();
            second.terminate();
            assertThat(second.awaitExit(60)).as("collector exit (SIGTERM: 143 after its shutdown hook); output:%n%s", second.output())
                    .isIn(0, 143);
            String collectorOutput = first.output() + second.output();

            // the wrong token: refused with the reason on both sides, nothing stored, the others unaffected
            assertThat(intruderOutput).contains("refused the stream (token): wrong token from agent " + intruderId);
            assertThat(collectorOutput).contains("refused: wrong token from agent " + intruderId);
            assertThat(out.resolve(intruderId.toString())).doesNotExist();
            assertThat(collectorOutput).contains(": not a Sonde stream: bad magic byte 0x47");
            assertThat(collectorOutput).containsPattern("input ended inside the frame at offset 12, which declares \\d+ bytes; only \\d+ available;"
                    + " partial frame discarded");

            for (UUID id : ids) {
                long produced = counts.get(id)[0];
                long written = counts.get(id)[1];
                long dropped = counts.get(id)[2];
                assertThat(produced).as("records the application made").isEqualTo(2L * 2 * THREADS * CALLS);
                assertThat(written + dropped).isEqualTo(produced);
                Archived a = Archived.read(out, id);
                System.out.printf("AcknowledgedDeliveryProcessTest: agent %s produced %d, written %d, dropped %d; archive: %s%n", id,
                        produced, written, dropped, a);
                assertThat(a.segments).as("segments of %s (a second connection after the kill)", id).isGreaterThanOrEqualTo(2);
                assertThat(a.duplicateSequences).as("frames stored twice, %s", a).isEmpty();
                assertThat(a.missingSequences).as("frames missing, %s", a).isZero();
                assertThat(a.problems).as("reader problems, %s", a).isEmpty();
                assertThat(a.tornTails).as("torn frames: at most the one being written when the collector was killed, %s", a)
                        .hasSizeLessThanOrEqualTo(1);
                assertThat(a.trailer).as("trailer of %s", id).isNotNull();
                assertThat(a.trailer.produced()).isEqualTo(produced);
                assertThat(a.dataRecords + a.trailer.droppedTotal()).as("records stored + counted dropped = produced, %s", a)
                        .isEqualTo(produced);
                assertThat(a.dataRecords).as("every record counted as written is stored").isEqualTo(written);
            }
            System.out.println("AcknowledgedDeliveryProcessTest: collector output:\n" + collectorOutput);
            // the commands read the archive of 2.2 segments like any log folder
            assertThat(SondeCommand.execute("analyze", out.toString())).as("sonde analyze exit").isZero();
            assertThat(SondeCommand.execute("dump", out.toString(), "--limit", "5")).as("sonde dump exit").isZero();
        } finally {
            for (JvmProcess a : agents) a.close();
            if (intruder != null) intruder.close();
            first.close();
            if (second != null) second.close();
        }
    }

    static Path privateFile(Path f, String content) throws IOException {
        Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(f, content + "\n");
        return f;
    }

    static JvmProcess startCollector(Path out, int port, Path token) throws IOException {
        return JvmProcess.start("collector", SondeCommand.class, "collector", "--port", String.valueOf(port), "--out", out.toString(),
                "--token-file", token.toString());
    }

    /** A collector on the port the killed one had, retried briefly in case the port is not free yet. */
    static JvmProcess startCollectorOnPort(Path out, int port, Path token) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            JvmProcess c = startCollector(out, port, token);
            try {
                c.awaitLine("collector listening on ", 60);
                return c;
            } catch (AssertionError e) {
                c.close();
                if (System.nanoTime() > deadline) throw e;
                Thread.sleep(200);
            }
        }
    }

    static Matcher matching(Pattern p, String line) {
        Matcher m = p.matcher(line);
        assertThat(m.matches()).as(line).isTrue();
        return m;
    }

    /** Waits (at most 60 s) until each agent's folder holds at least {@code bytes}. */
    static void awaitArchived(Path out, List<UUID> ids, long bytes) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (UUID id : ids) all &= folderBytes(out.resolve(id.toString())) >= bytes;
            if (all) return;
            Thread.sleep(20);
        }
        throw new AssertionError("the agents' folders under " + out + " did not reach " + bytes + " bytes within 60 s");
    }

    static long folderBytes(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) return 0;
        try (Stream<Path> files = Files.list(folder)) {
            return files.mapToLong(f -> f.toFile().length()).sum();
        }
    }

    /** One agent's folder read back: records with the reader, sequence numbers from the frame headers. */
    static final class Archived {
        long dataRecords;
        int segments;
        Trailer trailer;
        final List<String> problems = new ArrayList<>();
        /**
         * Torn last frames of a segment that is not the run's last: a collector killed while writing a
         * frame leaves its beginning (Receiver#abort); it was not acknowledged, so the agent sends it
         * again to the next collector. Readers report it, and it is not a stored frame.
         */
        final List<String> tornTails = new ArrayList<>();
        final List<Long> duplicateSequences = new ArrayList<>();
        long missingSequences;
        long frames;

        static Archived read(Path out, UUID agent) throws IOException {
            Archived a = new Archived();
            List<AgentLog> logs = SondeLogs.scan(out.resolve(agent.toString()));
            assertThat(logs).as("one run of agent %s", agent).hasSize(1);
            List<Path> segments = logs.get(0).segments();
            a.segments = segments.size();
            try (SondeReader r = logs.get(0).open().recover(p -> {
                String m = p.getMessage();
                boolean torn = m.contains(": input ended inside the frame at offset ")
                        && segments.subList(0, segments.size() - 1).stream().anyMatch(f -> m.startsWith(f + ": "));
                (torn ? a.tornTails : a.problems).add(m);
            })) {
                while (r.next()) {
                    if (Format.isDataRecord(r.type())) a.dataRecords++;
                }
                a.trailer = r.trailer();
            }
            TreeMap<Long, Integer> seen = new TreeMap<>();
            for (Path segment : logs.get(0).segments()) {
                for (long seq : numberedFrames(segment)) {
                    if (seen.merge(seq, 1, Integer::sum) > 1) a.duplicateSequences.add(seq);
                    a.frames++;
                }
            }
            a.missingSequences = seen.isEmpty() ? 0 : seen.lastKey() + 1 - seen.size(); // a run numbers its frames from 0
            return a;
        }

        /** Sequence numbers of the frames of a segment file, repeated registry frames left out. */
        static List<Long> numberedFrames(Path segment) throws IOException {
            List<Long> seqs = new ArrayList<>();
            try (FileChannel ch = FileChannel.open(segment)) {
                ByteBuffer all = ByteBuffer.allocate((int) ch.size()).order(ByteOrder.LITTLE_ENDIAN);
                while (all.hasRemaining() && ch.read(all) > 0) {
                    // read the whole file
                }
                for (int at = Format.STREAM_HEADER_BYTES; at < all.limit(); at += all.getInt(at + Format.FRAME_OFF_LENGTH)) {
                    if (at + Format.FRAME_OFF_SEQUENCE + 8 > all.limit() || at + all.getInt(at + Format.FRAME_OFF_LENGTH) > all.limit()) {
                        break; // a torn last frame (see tornTails): not stored
                    }
                    if (!DeliveryProtocol.isRepeat(all.get(at + Format.FRAME_OFF_FLAGS))) {
                        seqs.add(all.getLong(at + Format.FRAME_OFF_SEQUENCE));
                    }
                }
            }
            return seqs;
        }

        @Override
        public String toString() {
            return dataRecords + " data records in " + frames + " numbered frames, " + segments + " segments, trailer " + trailer
                    + ", duplicates " + duplicateSequences + ", missing " + missingSequences + ", problems " + problems
                    + ", torn tails " + tornTails;
        }
    }
}
