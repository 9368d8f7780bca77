package io.sonde.collector.archive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Stores received streams as files, frames unchanged: {@code <out>/<agent>/sonde-<agent>-<NNNNNN>.sonde},
 * one segment per connection of that agent, NNNNNN counting that agent's connections (continuing
 * after the highest index already on disk, so a restarted receiver never overwrites). Each file
 * holds the stream header and then only whole, CRC-checked frames, so it reads cleanly up to its
 * last frame whatever happens to the connection.
 *
 * <p>Frames are written with one channel write each and no user-space buffering: if the receiver
 * process dies, everything written so far is in the operating system's hands (not forced to disk
 * per frame; {@code force()}, called before frames are acknowledged, and {@code close()} force).
 *
 * <p>What peers send is private to the machine's owner: folders are created with permissions 0700
 * and files with 0600, set atomically at creation (on file systems without POSIX permissions the
 * platform's defaults apply). Nothing is written through a symbolic link: an agent folder or a
 * segment file that is a link is refused with an error naming it, and files are created
 * exclusively (never opened if something already exists at their path).
 */
public final class Archive implements FrameHandler {
    private static final Pattern SEGMENT = Pattern.compile("sonde-[0-9a-fA-F-]{36}-(\\d{6,9})\\.sonde");
    private static final Set<OpenOption> CREATE = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);

    private final Path out;
    private final boolean posix;
    private final Map<UUID, Integer> nextIndex = new HashMap<>();

    /** Uses the folder out, creating it (and missing parents) owner-only if it does not exist. */
    public Archive(Path out) throws IOException {
        this.out = out;
        this.posix = out.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.isDirectory(out)) {
            Files.createDirectories(out, permissions("rwx------"));
        }
    }

    public Path directory() {
        return out;
    }

    /** The file of the given agent and segment index. */
    public Path segmentPath(UUID agent, int index) {
        return out.resolve(agent.toString()).resolve(String.format("sonde-%s-%06d.sonde", agent, index));
    }

    @Override
    public StreamSink open(UUID agentId, byte[] streamHeader, String peer) throws IOException {
        Path file = reserve(agentId);
        FileChannel ch;
        try {
            ch = FileChannel.open(file, CREATE, permissions("rw-------"));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw refused(file, agentId, e);
            }
            // another collector sharing the folder (Kafka consumers taking over an agent's partition)
            // wrote this agent's next segment since we counted: count again from what is on disk, once
            forget(agentId);
            file = reserve(agentId);
            try {
                ch = FileChannel.open(file, CREATE, permissions("rw-------"));
            } catch (FileAlreadyExistsException again) {
                throw refused(file, agentId, again);
            }
        }
        try {
            writeFully(ch, streamHeader, streamHeader.length);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new SegmentSink(file, ch);
    }

    private static IOException refused(Path file, UUID agent, FileAlreadyExistsException e) {
        return new IOException("refusing to write segment " + file + " of agent " + agent
                + ": something already exists at that path (a file or symbolic link not made by this receiver)", e);
    }

    private synchronized void forget(UUID agent) {
        nextIndex.remove(agent);
    }

    private synchronized Path reserve(UUID agent) throws IOException {
        Integer next = nextIndex.get(agent);
        if (next == null) {
            Path dir = agentFolder(agent);
            int max = -1;
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Matcher m = SEGMENT.matcher(p.getFileName().toString());
                    if (m.matches()) {
                        if (Files.isSymbolicLink(p)) {
                            throw new IOException("refusing to store agent " + agent + ": " + p + " is a symbolic link, not a segment file");
                        }
                        max = Math.max(max, Integer.parseInt(m.group(1)));
                    }
                }
            }
            next = max + 1;
        }
        nextIndex.put(agent, next + 1);
        return segmentPath(agent, next);
    }

    /** The agent's folder, created owner-only if missing; refused if it is a link or not a folder. */
    private Path agentFolder(UUID agent) throws IOException {
        Path dir = out.resolve(agent.toString());
        try {
            Files.createDirectory(dir, permissions("rwx------"));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("refusing to store agent " + agent + ": " + dir + " is "
                        + (Files.isSymbolicLink(dir) ? "a symbolic link" : "not a folder"), e);
            }
        }
        return dir;
    }

    /** Permissions to set at creation, or none where the file system has no POSIX permissions. */
    private FileAttribute<?>[] permissions(String rwx) {
        return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(rwx))} : new FileAttribute<?>[0];
    }

    private static void writeFully(FileChannel ch, byte[] bytes, int length) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, length);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** One segment file being written by one connection. */
    private static final class SegmentSink implements StreamSink {
        private final Path file;
        private final FileChannel ch;

        SegmentSink(Path file, FileChannel ch) {
            this.file = file;
            this.ch = ch;
        }

        @Override
        public void frame(byte[] frame, int length) throws IOException {
            writeFully(ch, frame, length);
        }

        @Override
        public void force() throws IOException {
            ch.force(false);
        }

        @Override
        public void close() throws IOException {
            try {
                ch.force(false);
            } finally {
                ch.close();
            }
        }

        @Override
        public void abort() {
            try {
                ch.close();
            } catch (IOException ignored) {
                // killed: nothing more to do
            }
        }

        @Override
        public String target() {
            return file.toString();
        }
    }
}
