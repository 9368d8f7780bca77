package io.sonde.format.read;

import io.sonde.format.Format;
import io.sonde.format.stream.DeliveryProtocol;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds the streams (agent logs) under a path: a single file, a folder of one agent's segments
 * (file writer output, or {@code <out>/<agent>/} of the receiver), or a folder of several agents
 * (the receiver's {@code <out>/}, or a file writer folder shared by several JVMs).
 */
public final class SondeLogs {
    private SondeLogs() {}

    /** sonde-<uuid>-<segment index>.sonde */
    static final Pattern SEGMENT_NAME = Pattern.compile(
            "sonde-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})-(\\d{6,9})\\.sonde");

    /**
     * The agent logs under path. A regular file is one log of one segment. A directory is searched
     * together with its immediate sub-directories for {@code *.sonde} files; segment files of one
     * agent in one directory form one log ordered by segment index, or several logs when the agent
     * ran several times with the same agent id (a segment starting at frame sequence 0 starts a
     * new run; see {@link AgentLog#run()}).
     *
     * @throws FormatException ({@link FormatProblem#NO_STREAM}) if the path does not exist
     */
    public static List<AgentLog> scan(Path path) throws IOException {
        if (Files.isRegularFile(path)) {
            return List.of(single(path));
        }
        if (!Files.isDirectory(path)) {
            throw new FormatException(path.toString(), 0, FormatProblem.NO_STREAM, "no such file or directory");
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(path, 2)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".sonde") && Files.isRegularFile(p))
                    .sorted()
                    .collect(Collectors.toList());
        }
        // key "dir|uuid" keeps agents apart and also keeps two folders of the same agent apart
        Map<String, TreeMap<Integer, Path>> grouped = new TreeMap<>();
        Map<String, UUID> agents = new TreeMap<>();
        List<AgentLog> logs = new ArrayList<>();
        for (Path f : files) {
            Matcher m = SEGMENT_NAME.matcher(f.getFileName().toString());
            if (m.matches()) {
                UUID agent = UUID.fromString(m.group(1));
                String key = f.getParent() + "|" + agent;
                grouped.computeIfAbsent(key, k -> new TreeMap<>()).put(Integer.parseInt(m.group(2)), f);
                agents.put(key, agent);
            } else {
                logs.add(single(f));
            }
        }
        for (Map.Entry<String, TreeMap<Integer, Path>> e : grouped.entrySet()) {
            splitRuns(agents.get(e.getKey()), e.getValue(), logs);
        }
        return logs;
    }

    /**
     * Splits one agent's segments (in index order) into runs: a segment whose first frame has
     * sequence number 0 starts a new run (an agent restarted with the same agent id; sequence
     * numbers only restart with the agent). Each run is a log of its own, so a second run's
     * registry, trace ids and trailer are not taken as a continuation of the first run's. Not
     * when the run so far holds no whole numbered frame: a receiver killed while it wrote the
     * agent's frame 0 leaves a segment with only that frame, torn, and the agent, never
     * acknowledged, sends frame 0 again on its next connection; the run goes on.
     */
    private static void splitRuns(UUID agent, TreeMap<Integer, Path> segments, List<AgentLog> logs) throws IOException {
        List<Path> files = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        int run = 0;
        for (Map.Entry<Integer, Path> s : segments.entrySet()) {
            if (!files.isEmpty() && firstSequence(s.getValue()) == 0 && holdsWholeFrame(files)) {
                logs.add(new AgentLog(agent, files, indexes, run++));
                files = new ArrayList<>();
                indexes = new ArrayList<>();
            }
            files.add(s.getValue());
            indexes.add(s.getKey());
        }
        logs.add(new AgentLog(agent, files, indexes, run));
    }

    /**
     * The sequence number of a segment file's first frame, or -1 if the file does not start with
     * a stream header and a frame header (the reader reports what is wrong when it gets there).
     */
    static long firstSequence(Path segment) throws IOException {
        int need = Format.STREAM_HEADER_BYTES + Format.FRAME_OFF_SEQUENCE + 8;
        byte[] b = new byte[need];
        try (InputStream in = Files.newInputStream(segment)) {
            if (in.readNBytes(b, 0, need) < need) return -1;
        }
        if (!Arrays.equals(b, 0, Format.STREAM_MAGIC.length, Format.STREAM_MAGIC, 0, Format.STREAM_MAGIC.length)
                || LittleEndian.i32(b, Format.STREAM_HEADER_BYTES + Format.FRAME_OFF_MAGIC) != Format.FRAME_MAGIC) {
            return -1;
        }
        if (DeliveryProtocol.isRepeat(b[Format.STREAM_HEADER_BYTES + Format.FRAME_OFF_FLAGS])) {
            return -1; // a repeated registry frame opens a reconnection's segment: the run goes on
        }
        return LittleEndian.i64(b, Format.STREAM_HEADER_BYTES + Format.FRAME_OFF_SEQUENCE);
    }

    /** True when one of these segment files holds a whole numbered frame (read up to the first one). */
    private static boolean holdsWholeFrame(List<Path> segments) throws IOException {
        byte[] h = new byte[Format.FRAME_OFF_SEQUENCE + 8];
        for (Path segment : segments) {
            try (FileChannel ch = FileChannel.open(segment)) {
                long size = ch.size();
                for (long at = Format.STREAM_HEADER_BYTES; at + h.length <= size; ) {
                    ByteBuffer b = ByteBuffer.wrap(h);
                    while (b.hasRemaining() && ch.read(b, at + b.position()) > 0) {
                        // positional reads until the header is in
                    }
                    if (b.hasRemaining() || LittleEndian.i32(h, Format.FRAME_OFF_MAGIC) != Format.FRAME_MAGIC) {
                        break;
                    }
                    long length = Integer.toUnsignedLong(LittleEndian.i32(h, Format.FRAME_OFF_LENGTH));
                    if (length < Format.FRAME_FIXED_HEADER_BYTES || at + length > size) {
                        break; // torn
                    }
                    if (!DeliveryProtocol.isRepeat(h[Format.FRAME_OFF_FLAGS])) {
                        return true;
                    }
                    at += length;
                }
            }
        }
        return false;
    }

    private static AgentLog single(Path file) {
        Matcher m = SEGMENT_NAME.matcher(file.getFileName().toString());
        if (m.matches()) {
            return new AgentLog(UUID.fromString(m.group(1)), List.of(file), List.of(Integer.parseInt(m.group(2))), 0);
        }
        return new AgentLog(null, List.of(file), List.of(-1), 0);
    }
}
