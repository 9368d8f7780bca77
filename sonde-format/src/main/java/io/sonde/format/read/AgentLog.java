package io.sonde.format.read;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * The segment files of one agent's stream, in segment order, as found by
 * {@link SondeLogs#scan(Path)}. Files named {@code sonde-<uuid>-<NNNNNN>.sonde} are grouped by
 * agent and directory; any other {@code .sonde} file forms a log of its own (agent unknown until
 * read).
 */
public final class AgentLog {
    private final UUID agentId;
    private final List<Path> segments;
    private final List<Integer> indexes;
    private final int run;

    AgentLog(UUID agentId, List<Path> segments, List<Integer> indexes, int run) {
        this.agentId = agentId;
        this.run = run;
        this.segments = List.copyOf(segments);
        this.indexes = List.copyOf(indexes);
    }

    /** The agent id from the file names, or null for a file not named after the pattern. */
    public UUID agentId() {
        return agentId;
    }

    /** The segment files, ordered by segment index. */
    public List<Path> segments() {
        return segments;
    }

    /** The segment index of each file (from its name; -1 if the name carries none). */
    public List<Integer> segmentIndexes() {
        return indexes;
    }

    /**
     * Which run of this agent id in its folder the log is: 0 for the first, 1 for the next run
     * that used the same agent id (its first segment starts again at frame sequence 0), and so on.
     */
    public int run() {
        return run;
    }

    /** Opens a reader over all segments in order. */
    public SondeReader open() throws IOException {
        return new SondeReader(this);
    }

    @Override
    public String toString() {
        return (agentId == null ? segments.get(0).toString() : "agent " + agentId + (run > 0 ? " run " + run : "")) + " (" + segments.size() + " segment" + (segments.size() == 1 ? "" : "s") + ")";
    }
}
