package io.sonde.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The file writer never overwrites, never follows a link, and creates private files. */
@Timeout(60)
class FileWriterTest {
    static final UUID AGENT = UUID.fromString("5e1f0000-0000-4000-8000-00000000f11e");

    @TempDir
    Path dir;

    /** Runs one monitor into {@code dir} and records {@code pairs} executions of {@code method}. */
    static void run(Path dir, String method, int pairs, Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(Map.of("writer", "file", "file.dir", dir.toString(),
                "agent.id", AGENT.toString(), "file.segment.bytes", "4096", "frame.bytes", "4096"));
        settings.putAll(extra);
        Monitor m = Sonde.start(settings);
        try {
            MethodProbe p = m.methodProbe(method, "()V");
            for (int i = 0; i < pairs; i++) p.exit(p.enter());
        } finally {
            m.close();
        }
        assertThat(m.counters().written()).isEqualTo(2L * pairs);
    }

    /** Per log: the probe names of its ENTER records with their counts, and whether its trailer was read. */
    static List<String> summarise(List<AgentLog> logs) throws IOException {
        List<String> out = new ArrayList<>();
        for (AgentLog log : logs) {
            Map<String, Integer> enters = new HashMap<>();
            try (SondeReader r = log.open()) {
                while (r.next()) {
                    if (r.type() == Format.ENTER) enters.merge(r.probeName(), 1, Integer::sum);
                }
                out.add("run " + log.run() + " " + enters + " " + (r.end().complete() ? "complete" : r.end())
                        + " trailer written " + r.trailer().written());
            }
        }
        return out;
    }

    @Test
    void twoRunsWithTheSameAgentIdLeaveBothRunsRecords() throws IOException {
        run(dir, "app.First.run", 400, Map.of()); // several segments of 4 KiB
        int firstRunFiles = segmentFiles().size();
        assertThat(firstRunFiles).isGreaterThan(1);
        run(dir, "app.Second.run", 300, Map.of());
        assertThat(segmentFiles().size()).isGreaterThan(firstRunFiles);

        List<AgentLog> logs = SondeLogs.scan(dir);
        assertThat(logs).extracting(AgentLog::agentId).containsOnly(AGENT);
        assertThat(summarise(logs)).containsExactly(
                "run 0 {app.First.run=400} complete trailer written 800",
                "run 1 {app.Second.run=300} complete trailer written 600");
        // the second run's segments continue the numbering after the first run's
        assertThat(logs.get(1).segmentIndexes().get(0)).isEqualTo(logs.get(0).segmentIndexes().size());
    }

    private List<Path> segmentFiles() throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith("sonde-" + AGENT)).sorted().toList();
        }
    }

    @Test
    void aSymbolicLinkWithASegmentNameIsRefusedNotFollowed() throws IOException {
        Path target = dir.resolve("precious.txt");
        Files.writeString(target, "keep me");
        Path link = dir.resolve(FileWriter.segmentFileName(AGENT, 0));
        Files.createSymbolicLink(link, target);

        FileWriter w = new FileWriter(dir, 1 << 20);
        assertThatThrownBy(() -> w.open(new IdentityOnly(AGENT)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(link.toString())
                .hasMessageContaining("symbolic link");
        assertThat(Files.readString(target)).isEqualTo("keep me");
    }

    @Test
    void aLinkAppearingAtTheNextNameIsRefusedToo() throws IOException {
        Path target = dir.resolve("precious.txt");
        Files.writeString(target, "keep me");
        // an exclusive create on a link fails like on any existing name; the writer then says why
        FileWriter.SegmentChannels racing = (file, attributes) -> {
            if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) Files.createSymbolicLink(file, target);
            return FileWriter.EXCLUSIVE.create(file, attributes);
        };
        FileWriter w = new FileWriter(dir, 1 << 20, "600", racing, 0);
        assertThatThrownBy(() -> w.open(new IdentityOnly(AGENT)))
                .hasMessageContaining(dir.resolve(FileWriter.segmentFileName(AGENT, 0)).toString())
                .hasMessageContaining("symbolic link");
        assertThat(Files.readString(target)).isEqualTo("keep me");
    }

    @Test
    void segmentFilesAreCreatedOwnerOnlyByDefault() throws IOException {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "no POSIX permissions here");
        run(dir, "app.Private.run", 10, Map.of());
        for (Path f : segmentFiles()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as(f.toString()).isEqualTo("rw-------");
        }
    }

    @Test
    void fileModeSetsThePermissionsOfNewSegments() throws IOException {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "no POSIX permissions here");
        run(dir, "app.Shared.run", 10, Map.of("file.mode", "640"));
        // the umask may take bits away, never add them: 640 under any usual umask (022, 027, 077)
        // gives at most rw-r-----, and the owner keeps rw
        for (Path f : segmentFiles()) {
            String p = PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
            assertThat(p).as(f.toString()).startsWith("rw-").endsWith("---");
        }
    }

    @Test
    void fileModeMustBeThreeOctalDigits() {
        assertThatThrownBy(() -> FileWriter.permissions("0644")).hasMessageContaining("three octal digits");
        assertThatThrownBy(() -> FileWriter.permissions("680")).hasMessageContaining("three octal digits");
        assertThat(PosixFilePermissions.toString(FileWriter.permissions("751"))).isEqualTo("rwxr-x--x");
    }

    /** A context that only knows the agent id (enough for open() to fail before any frame). */
    static final class IdentityOnly implements WriterContext {
        private final UUID agent;

        IdentityOnly(UUID agent) {
            this.agent = agent;
        }

        @Override
        public UUID agentId() {
            return agent;
        }

        @Override
        public void seal(ByteBuffer frame) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void reseal(ByteBuffer sealedFrame) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void registryFrames(FrameSink sink) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void repeatedRegistryFrames(long sequence, FrameSink sink) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ByteBuffer segmentEndFrame(int nextSegmentIndex) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int frameHeaderBytes() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean closing() {
            return false;
        }

        @Override
        public long closeDeadlineNanos() {
            return 0;
        }

        @Override
        public long recordsInFrame() {
            return 0;
        }

        @Override
        public void droppedAfterWrite(io.sonde.format.DropReason reason, long records) {
            throw new AssertionError("the file writer reports its drops at once");
        }

        @Override
        public boolean definitionsInFrame() {
            return false;
        }

        @Override
        public void definitionsLostAfterWrite() {
            throw new AssertionError("the file writer reports its drops at once");
        }
    }
}
