package io.sonde.collector.archive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
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
 * per frame; {@code close()} forces).
 */
public final class Archive implements FrameHandler {
    private static final Pattern SEGMENT = Pattern.compile("sonde-[0-9a-fA-F-]{36}-(\\d{6,9})\\.sonde");

    private final Path out;
    private final Map<UUID, Integer> nextIndex = new HashMap<>();

    public Archive(Path out) throws IOException {
        this.out = out;
        Files.createDirectories(out);
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
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            writeFully(ch, streamHeader, streamHeader.length);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new SegmentSink(file, ch);
    }

    private synchronized Path reserve(UUID agent) throws IOException {
        Integer next = nextIndex.get(agent);
        if (next == null) {
            Path dir = out.resolve(agent.toString());
            Files.createDirectories(dir);
            int max = -1;
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Matcher m = SEGMENT.matcher(p.getFileName().toString());
                    if (m.matches()) {
                        max = Math.max(max, Integer.parseInt(m.group(1)));
                    }
                }
            }
            next = max + 1;
        }
        nextIndex.put(agent, next + 1);
        return segmentPath(agent, next);
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
