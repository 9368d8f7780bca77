package io.sonde.collector.receive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sonde.collector.archive.Archive;
import io.sonde.format.testing.StreamBytes;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the archive creates is private to its owner, and it never writes through a symbolic link. */
@Timeout(value = 1, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReceiverFilesTest {
    @TempDir
    Path tmp;

    private final Events events = new Events();
    private Receiver receiver;

    @AfterEach
    void stop() {
        if (receiver != null) {
            receiver.abort();
        }
    }

    /** Sends one whole stream of the agent and returns the peer name. */
    private String send(Archive archive, UUID agent) throws IOException {
        if (receiver == null) {
            receiver = Receiver.start(0, archive, events);
        }
        try (Socket s = Peers.connect(receiver)) {
            s.getOutputStream().write(TestStreams.build(agent, 1, 2, true).bytes);
            return Peers.name(s);
        }
    }

    private static boolean posix(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    @Test
    void foldersAreCreatedOwnerOnlyAndFilesReadableByTheOwnerOnly() throws Exception {
        assumeTrue(posix(tmp), "POSIX permissions");
        Path out = tmp.resolve("new").resolve("out");
        Archive archive = new Archive(out);
        UUID agent = new UUID(1, 1);
        events.await("closed " + send(archive, agent));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.getParent()))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve(agent.toString())))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(archive.segmentPath(agent, 0)))).isEqualTo("rw-------");
    }

    @Test
    void anAgentFolderThatIsASymbolicLinkIsRefusedAndNothingIsWrittenThrough() throws Exception {
        Path out = Files.createDirectory(tmp.resolve("out"));
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        UUID agent = new UUID(2, 2);
        Files.createSymbolicLink(out.resolve(agent.toString()), elsewhere);
        String peer = send(new Archive(out), agent);
        assertThat(events.await("failed " + peer)).isEqualTo("failed " + peer + " offset 12: I/O error: refusing to store agent " + agent + ": "
                + out.resolve(agent.toString()) + " is a symbolic link [frames 0]");
        try (var files = Files.list(elsewhere)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aSegmentFileThatIsASymbolicLinkIsRefusedAndItsTargetKept() throws Exception {
        Path out = Files.createDirectory(tmp.resolve("out"));
        UUID agent = new UUID(3, 3);
        Archive archive = new Archive(out);
        Files.createDirectory(out.resolve(agent.toString()));
        Path victim = Files.writeString(tmp.resolve("victim"), "keep");
        Files.createSymbolicLink(archive.segmentPath(agent, 0), victim);
        String peer = send(archive, agent);
        assertThat(events.await("failed " + peer)).isEqualTo("failed " + peer + " offset 12: I/O error: refusing to store agent " + agent + ": "
                + archive.segmentPath(agent, 0) + " is a symbolic link, not a segment file [frames 0]");
        assertThat(Files.readString(victim)).isEqualTo("keep");
        assertThat(archive.segmentPath(agent, 1)).doesNotExist();
    }

    @Test
    void aLinkPlantedWhereTheNextSegmentGoesIsNotOpened() throws Exception {
        Path out = Files.createDirectory(tmp.resolve("out"));
        UUID agent = new UUID(4, 4);
        Archive archive = new Archive(out);
        byte[] header = StreamBytes.streamHeader(1, 0);
        archive.open(agent, header, "p").close(); // segment 0; the archive now knows the next index
        Path victim = Files.writeString(tmp.resolve("victim"), "keep");
        Files.createSymbolicLink(archive.segmentPath(agent, 1), victim);
        assertThatThrownBy(() -> archive.open(agent, header, "p")).isInstanceOf(IOException.class)
                .hasMessage("refusing to write segment " + archive.segmentPath(agent, 1) + " of agent " + agent
                        + ": something already exists at that path (a file or symbolic link not made by this receiver)");
        assertThat(Files.readString(victim)).isEqualTo("keep");
    }
}
