package io.sonde.core.writer;

import io.sonde.core.log.SondeLog;
import io.sonde.format.Format;
import io.sonde.format.write.StreamHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes frames to rolling segment files {@code <dir>/sonde-<agent-uuid>-<NNNNNN>.sonde}. Each
 * segment starts with the stream header and a registry frame holding every definition; before a
 * frame would push the segment past {@code file.segment.bytes}, a SEGMENT_END frame closes it and
 * the next segment begins. Frames go straight from the pipeline's reused buffer to the channel.
 *
 * <p>Files are never overwritten: each segment is created exclusively ({@code CREATE_NEW}),
 * numbering continues after the highest index of this agent already in the folder (a second run
 * with the same {@code agent.id} adds segments after the first run's), and a symbolic link with a
 * segment's name is refused, not followed. New files get the permissions of {@code file.mode}
 * (default 600) at creation, on file systems with POSIX permissions.
 *
 * <p>A failed write (e.g. "No space left on device") does not end the writer: the segment is cut
 * back to its last whole frame and closed, the frame is dropped ({@link FrameDroppedException},
 * counted as reason writer failed), and frames are dropped until a new segment can be written,
 * tried at most once per retry interval (and once more for the trailer at close).
 *
 * <p>Bounded recordings ({@code file.maxsize}, {@code file.maxage}): after each new segment, and
 * at every flush for the age, the oldest closed segments of this agent in the folder (an earlier
 * run's included) are deleted whole while they and the current segment exceed the size, or while
 * the oldest was last written longer ago than the age; the current segment is never deleted. So
 * the folder holds at most {@code file.maxsize} plus one segment of this agent. Each deletion is
 * logged and counted ({@link #deletedSegments()}); see {@link SegmentRetention}.
 */
public final class FileWriter implements Writer {
    /** Default permissions of new segment files: read and write for the owner only. */
    public static final String DEFAULT_MODE = "600";
    static final long DEFAULT_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** Creates a new segment file exclusively; tests substitute channels that fail on purpose. */
    @FunctionalInterface
    interface SegmentChannels {
        FileChannel create(Path file, FileAttribute<?>[] attributes) throws IOException;
    }

    /** CREATE_NEW fails on any existing name, a symbolic link included (the link is not followed). */
    static final SegmentChannels EXCLUSIVE = (file, attributes) ->
            FileChannel.open(file, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes);

    /** A segment file just created, before it becomes the current one. */
    private record Segment(FileChannel channel, Path file, int index) {}

    private final Path dir;
    private final long segmentBytes;
    private final Set<PosixFilePermission> permissions;
    private final SegmentChannels channels;
    private final long retryNanos;
    private final SegmentRetention retention;
    private final ByteBuffer header =
            ByteBuffer.allocateDirect(Format.STREAM_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private FileAttribute<?>[] attributes = new FileAttribute<?>[0];
    private WriterContext context;
    /** The current segment, or null after a failed write until a new segment could be started. */
    private FileChannel channel;
    private Path file;
    private int segmentIndex;
    /** Index to try for the next segment file. */
    private int nextIndex;
    /** Bytes of whole frames in the current segment: where a failed write is cut back to. */
    private long segmentSize;
    /** Size of the segment's preamble (stream header + registry frames), -1 until written; rolling needs data beyond it. */
    private long preambleSize;
    private int segmentEndBytes;
    private long retryAt;
    private IOException lastError;
    private long droppedFrames;
    private long failures;

    public FileWriter(Path dir, long segmentBytes) {
        this(dir, segmentBytes, DEFAULT_MODE);
    }

    /** @param mode permissions of new segment files as three octal digits, e.g. {@code 600} */
    public FileWriter(Path dir, long segmentBytes, String mode) {
        this(dir, segmentBytes, mode, EXCLUSIVE, DEFAULT_RETRY_NANOS);
    }

    /**
     * A file writer with bounded recordings.
     *
     * @param maxBytes {@code file.maxsize}: bound of this agent's segments in the folder, 0 = none
     * @param maxAgeMillis {@code file.maxage}: closed segments last written longer ago are deleted, 0 = none
     */
    public FileWriter(Path dir, long segmentBytes, String mode, long maxBytes, long maxAgeMillis) {
        this(dir, segmentBytes, mode, EXCLUSIVE, DEFAULT_RETRY_NANOS,
                new SegmentRetention(maxBytes, maxAgeMillis, System::currentTimeMillis));
    }

    FileWriter(Path dir, long segmentBytes, String mode, SegmentChannels channels, long retryNanos) {
        this(dir, segmentBytes, mode, channels, retryNanos, new SegmentRetention(0, 0, System::currentTimeMillis));
    }

    FileWriter(Path dir, long segmentBytes, String mode, SegmentChannels channels, long retryNanos,
            SegmentRetention retention) {
        this.dir = dir;
        this.retention = retention;
        this.segmentBytes = segmentBytes;
        this.permissions = permissions(mode);
        this.channels = channels;
        this.retryNanos = retryNanos;
        StreamHeader.put(header);
        header.flip();
    }

    /** The file name of a segment: {@code sonde-<agent-uuid>-<NNNNNN>.sonde}. */
    public static String segmentFileName(UUID agentId, int segmentIndex) {
        return String.format("sonde-%s-%06d.sonde", agentId, segmentIndex);
    }

    /** Three octal digits (owner, group, others) as POSIX permissions, e.g. 640 -> rw-r-----. */
    public static Set<PosixFilePermission> permissions(String octal) {
        if (octal == null || !octal.matches("[0-7]{3}")) {
            throw new IllegalArgumentException("file mode '" + octal + "' is not three octal digits such as 600");
        }
        StringBuilder s = new StringBuilder(9);
        for (int i = 0; i < 3; i++) {
            int d = octal.charAt(i) - '0';
            s.append((d & 4) != 0 ? 'r' : '-').append((d & 2) != 0 ? 'w' : '-').append((d & 1) != 0 ? 'x' : '-');
        }
        return PosixFilePermissions.fromString(s.toString());
    }

    @Override
    public void open(WriterContext context) throws IOException {
        this.context = context;
        Files.createDirectories(dir);
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            // given at creation, so the file is never visible with wider permissions (umask applies on top)
            attributes = new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)};
        }
        nextIndex = firstFreeIndex(context.agentId());
        // a file that cannot even be created at start is a configuration error (thrown); a preamble
        // that cannot be written (disk full) is retried at the next frames like any failed write
        startSegment(createSegment());
        retention.enforce(currentBytes());
    }

    /**
     * One past the highest segment index of this agent already in the folder (0 if none), so that
     * a run with a fixed agent id continues after an earlier run's segments instead of replacing them.
     */
    private int firstFreeIndex(UUID agent) throws IOException {
        Pattern name = Pattern.compile(Pattern.quote("sonde-" + agent + "-") + "(\\d{6,9})\\.sonde");
        TreeMap<Integer, Path> found = new TreeMap<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "sonde-" + agent + "-*.sonde")) {
            for (Path f : s) {
                Matcher m = name.matcher(f.getFileName().toString());
                if (!m.matches()) continue;
                refuseLink(f);
                found.put(Integer.parseInt(m.group(1)), f);
            }
        }
        for (Map.Entry<Integer, Path> e : found.entrySet()) {
            retention.existing(e.getKey(), e.getValue()); // an earlier run's segments count toward the bounds
        }
        return found.isEmpty() ? 0 : found.lastKey() + 1;
    }

    private static void refuseLink(Path f) throws IOException {
        if (Files.isSymbolicLink(f)) { // looks at the link itself (does not follow it)
            throw new IOException("refusing to write through " + f + ": it is a symbolic link (Sonde creates its"
                    + " segment files itself and never follows a link; remove the link)");
        }
    }

    /** Creates the next free segment file exclusively, skipping names taken by other files. */
    private Segment createSegment() throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path f = dir.resolve(segmentFileName(context.agentId(), nextIndex));
            try {
                Segment s = new Segment(channels.create(f, attributes), f, nextIndex);
                nextIndex++;
                return s;
            } catch (FileAlreadyExistsException e) {
                refuseLink(f);
                if (attempt >= 1000) throw e; // another writer keeps taking the names
                nextIndex++;
            }
        }
    }

    /** Makes {@code s} the current segment and writes its preamble; on failure no segment is current. */
    private void startSegment(Segment s) {
        channel = s.channel();
        file = s.file();
        segmentIndex = s.index();
        segmentSize = 0;
        preambleSize = -1;
        try {
            header.rewind();
            writeFully(header);
            context.registryFrames(this::writeFully);
            preambleSize = segmentSize;
        } catch (IOException e) {
            abandon(e);
        }
    }

    @Override
    public void write(ByteBuffer frame) throws IOException {
        int length = frame.position();
        if (segmentEndBytes == 0) {
            segmentEndBytes = context.frameHeaderBytes() + 4;
        }
        if (channel == null) resume();
        if (channel != null && segmentSize > preambleSize && segmentSize + length + segmentEndBytes > segmentBytes) {
            roll();
        }
        context.seal(frame); // also for a dropped frame: its sequence number shows the gap
        if (channel == null) throw dropping();
        try {
            writeFully(frame);
        } catch (IOException e) {
            abandon(e);
            throw dropping();
        }
        if (droppedFrames > 0) {
            SondeLog.warn("file.resumed", "file writer resumed in " + file + " after dropping " + droppedFrames
                    + " frame(s) (their records are counted as dropped, reason writer failed)");
            droppedFrames = 0;
        }
    }

    /** Ends the current segment with SEGMENT_END naming the next one, which is created first. */
    private void roll() {
        Segment next;
        try {
            next = createSegment();
        } catch (IOException e) {
            abandon(e);
            return;
        }
        try {
            writeFully(context.segmentEndFrame(next.index()));
        } catch (IOException e) {
            cutBack(); // the segment then ends at its last whole frame, without SEGMENT_END
        }
        closeQuietly(channel);
        retention.closed(segmentIndex, file, segmentSize);
        startSegment(next);
        retention.enforce(currentBytes());
    }

    /** Bytes of the segment being written (0 while none is open). */
    private long currentBytes() {
        return channel == null ? 0 : segmentSize;
    }

    /** Tries to start a new segment after a failure (not before the retry time, except at close). */
    private void resume() {
        if (!context.closing() && System.nanoTime() - retryAt < 0) return;
        try {
            startSegment(createSegment());
        } catch (IOException e) {
            lastError = e;
            retryAt = System.nanoTime() + retryNanos;
            return;
        }
        retention.enforce(currentBytes());
    }

    /**
     * After a failed write: cuts the segment back to its last whole frame (so it stays readable to
     * its end) and closes it; a segment without a complete preamble is deleted instead (an empty
     * segment file is not a valid stream, and its index is reused).
     */
    private void abandon(IOException cause) {
        lastError = cause;
        failures++;
        retryAt = System.nanoTime() + retryNanos;
        String how;
        if (preambleSize < 0) {
            closeQuietly(channel);
            try {
                Files.deleteIfExists(file);
                how = "removed it (its preamble was incomplete)";
            } catch (IOException e) {
                how = "could not remove it (" + e.getMessage() + ")";
            }
            nextIndex = segmentIndex;
        } else {
            how = cutBack() ? "closed it at its last whole frame (offset " + segmentSize + ")"
                    : "could not cut it back to its last whole frame (offset " + segmentSize + ")";
            closeQuietly(channel);
            retention.closed(segmentIndex, file, segmentSize);
        }
        channel = null;
        if (droppedFrames > 0) return; // still the same outage (a retry that failed): said already
        SondeLog.warn("file.failed", "writing " + file + " failed (" + cause.getMessage() + "); " + how
                + "; records are dropped and counted (reason writer failed) until a new segment can be written,"
                + " tried every " + TimeUnit.NANOSECONDS.toMillis(retryNanos) + " ms");
    }

    /** Truncates the current segment to its whole frames (a partial write leaves a torn frame). */
    private boolean cutBack() {
        try {
            channel.truncate(segmentSize);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private FrameDroppedException dropping() {
        droppedFrames++;
        return new FrameDroppedException("file writer has no writable segment in " + dir
                + (lastError != null ? " (" + lastError.getMessage() + ")" : ""), lastError);
    }

    private void writeFully(ByteBuffer b) throws IOException {
        long at = segmentSize;
        while (b.hasRemaining()) {
            at += channel.write(b);
        }
        segmentSize = at; // only whole frames count
    }

    private static void closeQuietly(FileChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing a channel whose writes failed; nothing more to save
        }
    }

    @Override
    public void flush() {
        // Bytes are in the OS page cache once write() returns, which survives a JVM exit; no fsync
        // per flush interval (that would cost milliseconds on every interval).
        // Called every flush interval even when idle: where file.maxage is enforced between rolls.
        retention.enforce(currentBytes());
    }

    @Override
    public void close() throws IOException {
        if (channel != null) channel.close();
    }

    /** Index of the segment being written (or last written, while no segment is open). */
    public int segmentIndex() {
        return segmentIndex;
    }

    /** Segments of this agent deleted so far by {@code file.maxsize} or {@code file.maxage}. */
    public long deletedSegments() {
        return retention.deletedSegments();
    }

    /** How many times writing a segment failed so far. */
    public long failures() {
        return failures;
    }
}
