package io.sonde.analysis.input;

import io.sonde.analysis.progress.ProgressListener;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.FormatProblem;
import io.sonde.format.read.FrameHeader;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Binary logs on disk as a {@link RecordSource}: any mix of single files, folders of one agent's
 * segments and folders of several agents (found with {@link SondeLogs#scan}), each agent's
 * segments read in order through the format library's {@link SondeReader}.
 */
public final class LogSource implements RecordSource {
    /** Progress is reported every this many records. */
    private static final int PROGRESS_EVERY = 1 << 16;
    /** Problems listed per log; beyond, they are counted (a log whose definitions were lost may have one per record). */
    static final int MAX_PROBLEMS_PER_LOG = 1000;

    private final List<AgentLog> logs = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final long totalBytes;
    private final TimeRange range;

    /**
     * Finds the logs under the given paths.
     *
     * @throws IOException if a path does not exist or holds no log (the message names it)
     */
    public LogSource(List<Path> paths) throws IOException {
        long bytes = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        java.util.Set<Path> seen = new java.util.HashSet<>();
        for (Path p : paths) {
            List<AgentLog> found = SondeLogs.scan(p);
            if (found.isEmpty()) throw new IOException(p + ": holds no .sonde file");
            for (AgentLog log : found) {
                // The same file named twice (a folder and a file in it) must not count twice.
                if (!seen.add(log.segments().get(0).toAbsolutePath().normalize())) continue;
                logs.add(log);
                for (Path seg : log.segments()) {
                    names.add(seg.toString());
                    bytes += Files.size(seg);
                    TimeRange r = FrameTimeScan.scan(seg);
                    if (r != null) {
                        min = Math.min(min, r.startNanos());
                        max = Math.max(max, r.endNanos());
                    }
                }
            }
        }
        this.totalBytes = bytes;
        this.range = min == Long.MAX_VALUE ? null : new TimeRange(min, max);
    }

    @Override
    public TimeRange timeRange() {
        return range;
    }

    @Override
    public long totalBytes() {
        return totalBytes;
    }

    @Override
    public List<String> names() {
        return List.copyOf(names);
    }

    @Override
    public List<InputProblem> read(RecordHandler h, ProgressListener progress) {
        List<InputProblem> problems = new ArrayList<>();
        // an agent id that ran several times (same agent.id) is one agent per run: ids and traces restart
        Map<String, Integer> agentIndex = new HashMap<>();
        long doneBytes = 0;
        for (AgentLog log : logs) {
            long logBytes = 0;
            for (Path seg : log.segments()) logBytes += size(seg);
            LogReading reading = new LogReading(h, log.run(), agentIndex, problems);
            try (SondeReader r = log.open().includeDefinitions(true).recover(reading::problem)) {
                reading.read(r, progress, doneBytes);
                ReadEnd end = r.end();
                if (end != null && end.kind() == ReadEnd.Kind.INCOMPLETE) {
                    problems.add(InputProblem.notice(end.source(), end.offset(),
                            "stream ends without a trailer (the writer did not close cleanly; later records may be missing)"));
                }
            } catch (FormatException e) {
                problems.add(InputProblem.error(e.source(), e.offset(), e.detail()));
            } catch (IOException e) {
                problems.add(InputProblem.error(log.segments().get(0).toString(), -1, String.valueOf(e.getMessage())));
            } catch (UncheckedIOException e) {
                throw e;
            }
            reading.finish();
            InputProblem trimmed = earlierSegmentsDeleted(log, reading.firstSequence);
            if (trimmed != null) {
                problems.add(trimmed);
                reading.explainedByDeletedSegments();
            }
            doneBytes += logBytes;
            progress.progress(doneBytes, totalBytes);
        }
        return problems;
    }

    /**
     * A bounded recording ({@code file.maxsize}, {@code file.maxage}) deletes an agent's oldest
     * segments: its log then starts at a segment index above 0 with a frame sequence above 0 (a
     * run's first segment starts at sequence 0). Said as a notice, so the missing start is neither
     * silent nor mistaken for damage. Null when the log starts where its run started.
     */
    static InputProblem earlierSegmentsDeleted(AgentLog log, long firstSequence) {
        int first = log.segmentIndexes().get(0);
        if (first <= 0 || firstSequence <= 0) return null;
        return InputProblem.notice(log.segments().get(0).toString(), 0, first + " earlier segment(s) of this agent"
                + " deleted (segments " + String.format("%06d", 0) + ".." + String.format("%06d", first - 1)
                + " are not in the folder: a recording bounded by file.maxsize or file.maxage, or removed by hand);"
                + " the stream starts at segment " + String.format("%06d", first) + ", frame sequence " + firstSequence
                + "; executions already open there count as unmatched exits");
    }

    /**
     * The reading of one agent's log. The reader runs in recovery mode: it reads past damage and
     * hands each problem over at the point where it met it, so that the call trees spanning that
     * point are closed as broken ({@link RecordHandler#onHole}) before the records after it arrive.
     */
    private final class LogReading {
        private final RecordHandler h;
        private final int run;
        private final Map<String, Integer> agentIndex;
        private final List<InputProblem> problems;
        private int agent = -1;
        private long problemCount;
        /** The sequence number of the first frame read, -1 before it (a trimmed log starts above 0). */
        long firstSequence = -1;
        /** Indexes in problems of this log's sequence gaps, settled by {@link #finish()}. */
        private final List<Integer> gaps = new ArrayList<>();
        private boolean trailerMismatch;
        /** Index in problems of this log's trailer mismatch, -1 if none was listed. */
        private int trailerMismatchAt = -1;
        private boolean trailerRead;
        /** The field values of the event record the reader is on, rendered only when asked for. */
        private SondeReader current;
        private final EventFields fields = this::eventFieldText;

        LogReading(RecordHandler h, int run, Map<String, Integer> agentIndex, List<InputProblem> problems) {
            this.h = h;
            this.run = run;
            this.agentIndex = agentIndex;
            this.problems = problems;
        }

        void problem(FormatException p) {
            if (++problemCount <= MAX_PROBLEMS_PER_LOG) {
                if (p.problem() == FormatProblem.SEQUENCE_GAP) gaps.add(problems.size());
                if (p.problem() == FormatProblem.TRAILER_MISMATCH) trailerMismatchAt = problems.size();
                problems.add(InputProblem.error(p.source(), p.offset(), p.detail()));
            }
            if (p.problem() == FormatProblem.TRAILER_MISMATCH) trailerMismatch = true;
            if (p.problem().breaksContinuity() && agent >= 0) h.onHole(agent);
        }

        /**
         * Settles the sequence gaps: when the trailer's count of records written matches the records
         * read, a gap lost no record (the TCP writer re-sends a failed frame under a new number), so
         * it becomes a notice. Then lists how many problems were left out, if any (a log whose
         * definitions were lost may have one per record).
         */
        /**
         * A log whose oldest segments a bounded recording deleted reads fewer records than its
         * trailer counts for the whole run: that shortfall is the deletion already reported, not
         * damage, so the mismatch becomes a notice that says so.
         */
        void explainedByDeletedSegments() {
            if (trailerMismatchAt < 0) return;
            InputProblem m = problems.get(trailerMismatchAt);
            problems.set(trailerMismatchAt, InputProblem.notice(m.source(), m.offset(),
                    m.message() + "; the records of the deleted earlier segments count in the trailer"));
        }

        void finish() {
            if (trailerRead && !trailerMismatch) {
                for (int i : gaps) {
                    InputProblem gap = problems.get(i);
                    problems.set(i, InputProblem.notice(gap.source(), gap.offset(),
                            gap.message() + "; no record lost: the trailer's count matches the records read"));
                }
            }
            if (problemCount > MAX_PROBLEMS_PER_LOG) {
                InputProblem last = problems.get(problems.size() - 1);
                problems.add(InputProblem.error(last.source(), -1, (problemCount - MAX_PROBLEMS_PER_LOG) + " more problems in this log not listed ("
                        + problemCount + " in all)"));
            }
        }

        void read(SondeReader r, ProgressListener progress, long doneBefore) throws IOException {
            long frames = -1;
            String source = null;
            long sourceBase = doneBefore;
            long count = 0;
            while (r.next()) {
                if (r.framesRead() != frames) {
                    frames = r.framesRead();
                    FrameHeader f = r.frame();
                    if (firstSequence < 0) firstSequence = f.sequence();
                    if (agent < 0) {
                        UUID id = f.agentId();
                        Integer known = agentIndex.get(id + "#" + run);
                        if (known == null) {
                            known = agentIndex.size();
                            agentIndex.put(id + "#" + run, known);
                            h.onAgent(new AgentInfo(known, id, f.host(), f.pid()));
                        }
                        agent = known;
                    }
                    h.onFrame(agent, f.wallNanos(), f.monoNanos());
                    if (!r.source().equals(source)) {
                        if (source != null) sourceBase += size(Path.of(source));
                        source = r.source();
                    }
                }
                deliver(r);
                if (++count % PROGRESS_EVERY == 0) progress.progress(sourceBase + r.recordOffset(), totalBytes);
            }
            Trailer t = r.trailer();
            trailerRead = t != null;
            if (t != null && agent >= 0) h.onTrailer(agent, t.produced(), t.written());
        }

        private String eventFieldText() {
            return RecordDelivery.fieldText(current);
        }

        private void deliver(SondeReader r) {
            current = r;
            RecordDelivery.deliver(r, agent, h, fields);
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }
}
