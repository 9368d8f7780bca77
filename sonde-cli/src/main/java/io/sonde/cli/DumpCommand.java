package io.sonde.cli;

import io.sonde.format.read.AgentLog;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.FormatProblem;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.RecordText;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde dump FILE|DIR [--limit N]}: prints the records of a binary log as text, one line
 * per record, then the trailer's counters and how the stream ended. It reads past damage (the
 * reader's recovery mode): each problem is printed where it was met, with its offset and the bytes
 * skipped, reading goes on at the next valid frame, and every problem is repeated on standard
 * error at the end (exit code 1). A folder of several streams is dumped stream by stream.
 */
@Command(name = "dump", mixinStandardHelpOptions = true, description = "Prints the records of a binary log as text.")
public final class DumpCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE|DIR", description = "A .sonde file, a folder of one agent's segments, or a folder of several agents (e.g. the output of 'sonde receive').")
    Path path;

    @Option(names = "--limit", paramLabel = "N", description = "Print at most N records per stream (default: all).")
    Long limit;

    @Option(names = "--definitions", description = "Also print the definition records (probe, string, thread and event type ids).")
    boolean definitions;

    @Option(names = "--frames", description = "Also print a line for each frame header (sequence, host, pid, times, offset).")
    boolean frames;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (limit != null && limit < 0) {
            throw new UsageError("--limit must be 0 or more, got " + limit);
        }
        PrintWriter out = spec.commandLine().getOut();
        List<AgentLog> logs;
        try {
            logs = SondeLogs.scan(path);
        } catch (IOException e) {
            throw new UserError(e.getMessage());
        }
        if (logs.isEmpty()) {
            throw new UserError(path + ": no .sonde files found");
        }
        List<String> failures = new ArrayList<>();
        for (AgentLog log : logs) {
            if (logs.size() > 1) {
                out.println("== " + log + " ==");
            }
            dump(log, out, failures);
            out.flush();
        }
        // Every problem of every stream is reported again at the end (as analyze does), each on its own line.
        PrintWriter err = spec.commandLine().getErr();
        for (String failure : failures) {
            err.println("sonde dump: " + failure);
        }
        err.flush();
        return failures.isEmpty() ? 0 : 1;
    }

    /**
     * Dumps one stream, reading past damage: each problem is printed where it was met, and added
     * to {@code failures}.
     */
    private void dump(AgentLog log, PrintWriter out, List<String> failures) {
        SondeReader opened;
        try {
            opened = log.open();
        } catch (IOException e) {
            failures.add(e.getMessage());
            return;
        }
        try (SondeReader r = opened) {
            List<FormatException> problems = new ArrayList<>();
            r.includeDefinitions(definitions).recover(p -> {
                out.println("problem: " + p.getMessage());
                problems.add(p);
            });
            long printed = 0;
            long lastFrame = -1;
            String lastSource = null;
            try {
                while (r.next()) {
                    if (limit != null && printed >= limit) {
                        out.println("(stopped after " + limit + " records: --limit)");
                        return;
                    }
                    if (frames && (r.frame().offset() != lastFrame || !r.source().equals(lastSource))) {
                        lastFrame = r.frame().offset();
                        lastSource = r.source();
                        out.println(RecordText.frame(r.frame(), r.source()));
                    }
                    out.println(RecordText.record(r));
                    printed++;
                }
            } catch (IOException e) {
                out.flush();
                failures.add(e instanceof FormatException ? e.getMessage() : r.source() + ": " + e.getMessage());
                return;
            } finally {
                // a sequence gap lost no record when the trailer's count matches (a frame re-sent under a new number)
                boolean countsMatch = r.trailer() != null && problems.stream().noneMatch(p -> p.problem() == FormatProblem.TRAILER_MISMATCH);
                for (FormatException p : problems) {
                    if (!(countsMatch && p.problem() == FormatProblem.SEQUENCE_GAP)) failures.add(p.getMessage());
                }
            }
            Trailer t = r.trailer();
            if (t != null) {
                out.println(RecordText.trailer(t));
            }
            ReadEnd end = r.end();
            String problemNote = r.problemCount() == 0 ? "" : ", " + r.problemCount() + " problem(s)";
            out.println(end.kind() == ReadEnd.Kind.COMPLETE ? "end: complete, " + printed + " records" + problemNote
                    : "end: INCOMPLETE, " + printed + " records" + problemNote + ": " + end);
        }
    }
}
