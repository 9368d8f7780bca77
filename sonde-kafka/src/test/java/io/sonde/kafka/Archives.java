package io.sonde.kafka;

import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import io.sonde.format.stream.DeliveryProtocol;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

/** Reads an archive folder back for the checks: frames per (agent, sequence), records per agent. */
final class Archives {
    private Archives() {}

    /** Per agent, how many times each (non-repeat) frame sequence number is stored in its segment files. */
    static Map<UUID, Map<Long, Integer>> frameCounts(Path out) throws IOException {
        Map<UUID, Map<Long, Integer>> counts = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(out, 2)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".sonde")).toList();
        }
        for (Path f : files) {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
            UUID agent = UUID.fromString(f.getParent().getFileName().toString());
            Map<Long, Integer> c = counts.computeIfAbsent(agent, a -> new TreeMap<>());
            int at = Format.STREAM_HEADER_BYTES;
            while (at + Format.FRAME_FIXED_HEADER_BYTES <= b.limit()) {
                if (b.getInt(at + Format.FRAME_OFF_MAGIC) != Format.FRAME_MAGIC) {
                    throw new IOException(f + ": no frame magic at " + at);
                }
                int length = b.getInt(at + Format.FRAME_OFF_LENGTH);
                if (!DeliveryProtocol.isRepeat(b.get(at + Format.FRAME_OFF_FLAGS))) {
                    c.merge(b.getLong(at + Format.FRAME_OFF_SEQUENCE), 1, Integer::sum);
                }
                at += length;
            }
            if (at != b.limit()) {
                throw new IOException(f + ": torn frame at " + at);
            }
        }
        return counts;
    }

    /** Records (probe and event records) of one agent's log in the archive, read with the format's reader. */
    static long records(Path out, UUID agent) throws IOException {
        long n = 0;
        try (SondeReader r = SondeReader.open(out.resolve(agent.toString()))) {
            while (r.next()) {
                if (r.type() <= Format.EVENT) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The trailer of one agent's log in the archive (null if the log has none). */
    static Trailer trailer(Path out, UUID agent) throws IOException {
        try (SondeReader r = SondeReader.open(out.resolve(agent.toString()))) {
            while (r.next()) {
                // read to the end: the trailer is the last frame
            }
            return r.trailer();
        }
    }
}
