package io.sonde.collector.archive;

import io.sonde.format.Format;
import io.sonde.format.stream.DeliveryProtocol;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What an archive already holds, for acknowledged delivery after a collector restart: per agent the
 * highest frame sequence number of its latest run, found by walking the frame headers of its
 * segment files (length fields only, no CRC: a file ends at its last whole frame, and a torn last
 * frame of a killed collector is ignored). The files read are forced to disk, so what is reported
 * is durable even if the killed collector had not forced it yet.
 */
public final class HeldSequences {
    private static final Pattern SEGMENT = Pattern.compile("sonde-([0-9a-fA-F-]{36})-(\\d{6,9})\\.sonde");
    /** Bytes of a frame header read per frame: up to and including the sequence number. */
    private static final int PROBE = Format.FRAME_OFF_SEQUENCE + 8;

    private HeldSequences() {}

    /** Highest sequence number per agent folder under {@code out} (agents without frames are left out). */
    public static Map<UUID, Long> recover(Path out) throws IOException {
        Map<UUID, Long> held = new HashMap<>();
        if (!Files.isDirectory(out)) {
            return held;
        }
        try (Stream<Path> dirs = Files.list(out)) {
            for (Path dir : (Iterable<Path>) dirs::iterator) {
                UUID agent = agentOf(dir);
                if (agent == null || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                long h = highestOfLatestRun(dir);
                if (h >= 0) {
                    held.put(agent, h);
                }
            }
        }
        return held;
    }

    /**
     * Highest sequence number of the latest run of one agent under {@code out}, or -1 if the
     * archive holds no frame of it: for a collector that learns agents one at a time (the Kafka
     * consumer, when it first sees an agent after being assigned its partition).
     */
    public static long highest(Path out, UUID agent) throws IOException {
        Path dir = out.resolve(agent.toString());
        return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) ? highestOfLatestRun(dir) : -1;
    }

    private static UUID agentOf(Path dir) {
        try {
            return UUID.fromString(dir.getFileName().toString());
        } catch (IllegalArgumentException notAnAgentFolder) {
            return null;
        }
    }

    /** The agent's segments in index order; a segment whose first numbered frame is 0 starts a new run. */
    private static long highestOfLatestRun(Path dir) throws IOException {
        TreeMap<Integer, Path> segments = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Matcher m = SEGMENT.matcher(f.getFileName().toString());
                if (m.matches() && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    segments.put(Integer.parseInt(m.group(2)), f);
                }
            }
        }
        long highest = -1;
        for (Path f : segments.values()) {
            long[] firstAndHighest = scan(f);
            if (firstAndHighest[0] == 0) {
                highest = -1; // a new run of this agent id
            }
            highest = Math.max(highest, firstAndHighest[1]);
        }
        return highest;
    }

    /** {first numbered frame's sequence, highest sequence} of one segment file, -1 where none. */
    static long[] scan(Path file) throws IOException {
        long first = -1;
        long highest = -1;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            ByteBuffer b = ByteBuffer.allocate(PROBE).order(ByteOrder.LITTLE_ENDIAN);
            for (long at = Format.STREAM_HEADER_BYTES; at + PROBE <= size; ) {
                b.clear();
                while (b.hasRemaining() && ch.read(b, at + b.position()) > 0) {
                    // positional reads until the probe is full
                }
                if (b.hasRemaining() || b.getInt(Format.FRAME_OFF_MAGIC) != Format.FRAME_MAGIC) {
                    break;
                }
                long length = Integer.toUnsignedLong(b.getInt(Format.FRAME_OFF_LENGTH));
                if (length < Format.FRAME_FIXED_HEADER_BYTES || at + length > size) {
                    break; // a torn last frame
                }
                if (!DeliveryProtocol.isRepeat(b.get(Format.FRAME_OFF_FLAGS))) {
                    long seq = b.getLong(Format.FRAME_OFF_SEQUENCE);
                    if (first < 0) {
                        first = seq;
                    }
                    highest = Math.max(highest, seq);
                }
                at += length;
            }
            ch.force(false); // what a killed collector wrote may still be only in the page cache
        }
        return new long[] {first, highest};
    }
}
