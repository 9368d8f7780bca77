package io.sonde.core.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.Counters;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.pipeline.Identity;
import io.sonde.core.pipeline.Pipeline;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk: the file writer counts what it cannot write (reason writer failed), leaves every
 * segment readable to its end, and resumes in a new segment when space returns.
 */
@Timeout(120)
class FileWriterDiskFullTest {
    static final UUID AGENT = UUID.fromString("d15cf011-0000-4000-8000-000000000001");
    static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    @TempDir
    Path dir;

    @Test
    void aFullDiskDropsAndCountsThenWritingResumesInANewSegment() throws Exception {
        SmallDisk disk = new SmallDisk(dir, 6000);
        FileWriter writer = new FileWriter(dir, 1 << 20, "600", disk, RETRY_NANOS);
        Counters c = fillRecoverAndClose(writer, () -> disk.capacity = Long.MAX_VALUE);
        assertThat(disk.failedWrites).isPositive();
        checkLog(dir, c, writer);
    }

    @Test
    void aRealFullFileSystemDropsAndCountsThenWritingResumes() throws Exception {
        Path mnt = Files.createDirectory(dir.resolve("small-fs"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt.toString())
                .redirectErrorStream(true).start();
        String out = new String(mount.getInputStream().readAllBytes());
        Assumptions.assumeTrue(mount.waitFor() == 0, "cannot mount a 64 KiB tmpfs here (needs root and mount rights): " + out.strip());
        try {
            Path logs = Files.createDirectory(mnt.resolve("logs"));
            Path ballast = mnt.resolve("ballast");
            Files.write(ballast, new byte[40 << 10]); // freed later: "space returns"
            FileWriter writer = new FileWriter(logs, 1 << 20, "600", FileWriter.EXCLUSIVE, RETRY_NANOS);
            Counters c = fillRecoverAndClose(writer, () -> {
                try {
                    Files.delete(ballast);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            checkLog(logs, c, writer);
        } finally {
            new ProcessBuilder("umount", mnt.toString()).inheritIO().start().waitFor();
        }
    }

    /** Records until the disk is full, records while it is full, frees space, records, closes. */
    private static Counters fillRecoverAndClose(FileWriter writer, Runnable freeSpace) throws Exception {
        SondeConfig cfg = SondeConfig.of(Map.of("frame.bytes", "4096", "flush.interval.ms", "5"));
        Monitor m = MonitorAccess.of(new Pipeline(cfg, writer, Identity.of(AGENT), false));
        try {
            MethodProbe p = m.methodProbe("app.Disk.fill", "()V");
            record(m, p, 3000); // ~100 KB of records: more than the disk holds
            assertThat(writer.failures()).as("the disk filled up").isPositive();
            long droppedWhenFull = m.counters().dropped(DropReason.WRITER_FAILED);
            assertThat(droppedWhenFull).isPositive();
            record(m, p, 200); // still full: dropped and counted
            assertThat(m.counters().dropped(DropReason.WRITER_FAILED)).isGreaterThan(droppedWhenFull);
            freeSpace.run();
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(RETRY_NANOS) * 3);
            record(m, p, 300);
        } finally {
            m.close();
        }
        return m.counters();
    }

    /** Records {@code pairs} executions and waits until the writer has written or dropped all of them. */
    private static void record(Monitor m, MethodProbe p, int pairs) throws InterruptedException {
        for (int i = 0; i < pairs; i++) p.exit(p.enter());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Counters c = m.counters();
            if (c.written() + c.dropped(DropReason.WRITER_FAILED) == c.produced()) return;
            assertThat(System.nanoTime()).as("writer keeps up").isLessThan(deadline);
            Thread.sleep(2);
        }
    }

    private static void checkLog(Path dir, Counters c, FileWriter writer) throws IOException {
        // every record is either written or counted as dropped (writer failed), nothing else
        assertThat(c.produced()).isEqualTo(2 * (3000 + 200 + 300));
        assertThat(c.written() + c.dropped(DropReason.WRITER_FAILED)).isEqualTo(c.produced());
        assertThat(c.dropped()).isEqualTo(c.dropped(DropReason.WRITER_FAILED));
        assertThat(c.written()).isGreaterThanOrEqualTo(2 * 300);

        List<AgentLog> logs = SondeLogs.scan(dir);
        assertThat(logs).hasSize(1); // one run: the segment after the failure continues it
        AgentLog log = logs.get(0);
        assertThat(log.segments()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(log.segmentIndexes().get(log.segmentIndexes().size() - 1)).isEqualTo(writer.segmentIndex());
        // the segment that failed ends at a whole frame: readable to its very end, without error
        Path failed = log.segments().get(0);
        try (SondeReader r = SondeReader.open(failed)) {
            while (r.next()) {
                // read every record
            }
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.INCOMPLETE);
            assertThat(r.end().offset()).isEqualTo(Files.size(failed));
        }
        // the whole log: all written records, the trailer balances, the lost frames show as a gap
        long dataRecords = 0;
        try (SondeReader r = log.open()) {
            while (r.next()) {
                if (Format.isDataRecord(r.type())) dataRecords++;
            }
            assertThat(r.end().complete()).as(String.valueOf(r.end())).isTrue();
            assertThat(r.trailer().written()).isEqualTo(c.written());
            assertThat(r.trailer().dropped(DropReason.WRITER_FAILED)).isEqualTo(c.dropped(DropReason.WRITER_FAILED));
            assertThat(r.trailer().balanced()).isTrue();
            assertThat(r.missingFrames()).isPositive();
        }
        assertThat(dataRecords).isEqualTo(c.written());
    }

    /**
     * Segment channels on a disk of {@code capacity} bytes (the sizes of the files in the folder):
     * a write beyond it writes what fits, then fails like a full disk.
     */
    static final class SmallDisk implements FileWriter.SegmentChannels {
        private final Path dir;
        volatile long capacity;
        volatile int failedWrites;

        SmallDisk(Path dir, long capacity) {
            this.dir = dir;
            this.capacity = capacity;
        }

        long used() throws IOException {
            try (Stream<Path> s = Files.list(dir)) {
                long n = 0;
                for (Path f : (Iterable<Path>) s::iterator) n += Files.size(f);
                return n;
            }
        }

        @Override
        public FileChannel create(Path file, FileAttribute<?>[] attributes) throws IOException {
            return new Channel(FileWriter.EXCLUSIVE.create(file, attributes));
        }

        final class Channel extends FileChannel {
            private final FileChannel d;

            Channel(FileChannel d) {
                this.d = d;
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                long free = capacity - used();
                if (free <= 0) {
                    failedWrites++;
                    throw new IOException("No space left on device");
                }
                if (src.remaining() <= free) return d.write(src);
                ByteBuffer part = src.slice();
                part.limit((int) free);
                int n = d.write(part);
                src.position(src.position() + n);
                return n;
            }

            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(ByteBuffer dst) throws IOException {
                return d.read(dst);
            }

            @Override
            public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
                return d.read(dsts, offset, length);
            }

            @Override
            public long position() throws IOException {
                return d.position();
            }

            @Override
            public FileChannel position(long p) throws IOException {
                d.position(p);
                return this;
            }

            @Override
            public long size() throws IOException {
                return d.size();
            }

            @Override
            public FileChannel truncate(long size) throws IOException {
                d.truncate(size);
                return this;
            }

            @Override
            public void force(boolean metaData) throws IOException {
                d.force(metaData);
            }

            @Override
            public long transferTo(long position, long count, WritableByteChannel target) {
                throw new UnsupportedOperationException();
            }

            @Override
            public long transferFrom(ReadableByteChannel src, long position, long count) {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                return d.read(dst, position);
            }

            @Override
            public int write(ByteBuffer src, long position) {
                throw new UnsupportedOperationException();
            }

            @Override
            public MappedByteBuffer map(MapMode mode, long position, long size) {
                throw new UnsupportedOperationException();
            }

            @Override
            public FileLock lock(long position, long size, boolean shared) {
                throw new UnsupportedOperationException();
            }

            @Override
            public FileLock tryLock(long position, long size, boolean shared) {
                throw new UnsupportedOperationException();
            }

            @Override
            protected void implCloseChannel() throws IOException {
                d.close();
            }
        }
    }
}
