package io.sonde.cli;

import io.sonde.cli.live.JsonText;
import io.sonde.collector.database.ArchiveQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde query DIR "SQL" [--json]} and {@code sonde query DIR --top-operations [--agent ID]
 * [--from T] [--to T]}: a read-only query on the archive database DIR/archive.db, printed as a
 * table or as JSON rows.
 */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Runs a read-only SQL query on an archive's database (DIR/archive.db) and prints a table or JSON rows.",
        footer = {"", "Tables: agents, segments, operation_minutes, attribute_samples (see docs/collector.md).",
            "Example: sonde query out \"SELECT operation, SUM(calls) FROM operation_minutes GROUP BY operation\""})
public final class QueryCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR", description = "The collector's output folder.")
    Path dir;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SQL", description = "One reading statement (SELECT, WITH, VALUES, EXPLAIN).")
    String sql;

    @Option(names = "--json", description = "Print a JSON array of row objects instead of a table.")
    boolean json;

    @Option(names = "--top-operations", description = "Instead of SQL: operations by total wall time (calls, errors, mean, max).")
    boolean top;

    @Option(names = "--agent", paramLabel = "ID", description = "With --top-operations: only this agent.")
    String agent;

    @Option(names = "--from", paramLabel = "T", description = "With --top-operations: minutes from T (ISO-8601 instant like 2026-11-22T10:00:00Z, or ms since the epoch).")
    String from;

    @Option(names = "--to", paramLabel = "T", description = "With --top-operations: minutes before T.")
    String to;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "With --top-operations: at most N operations (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--max-rows", paramLabel = "N", defaultValue = "0", description = "Print at most N rows (default: all).")
    int maxRows;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (top == (sql != null)) {
            throw new UsageError(top ? "give either SQL or --top-operations, not both" : "give a SQL statement or --top-operations");
        }
        if (!top && (agent != null || from != null || to != null)) {
            throw new UsageError("--agent, --from and --to go with --top-operations");
        }
        if (limit <= 0 || maxRows < 0) {
            throw new UsageError("--limit must be positive and --max-rows not negative");
        }
        if (!Files.isDirectory(dir)) {
            throw new UserError("no such folder: " + dir);
        }
        String statement = top ? ArchiveQuery.topOperations(agent, time("--from", from), time("--to", to), limit) : sql;
        ArchiveQuery.Result r;
        try {
            r = ArchiveQuery.run(dir, statement, maxRows);
        } catch (ArchiveQuery.Refused e) {
            throw new UserError("refused: " + e.getMessage());
        } catch (SQLException e) {
            throw new UserError(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? json(r) : table(r));
        out.flush();
        return 0;
    }

    private static Long time(String option, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            try {
                return Instant.parse(value.trim()).toEpochMilli();
            } catch (DateTimeParseException ex) {
                throw new UsageError(option + ": expected an ISO-8601 instant (2026-11-22T10:00:00Z) or ms since the epoch, got '" + value + "'");
            }
        }
    }

    /** Columns padded to their widest value; numbers right-aligned. */
    static String table(ArchiveQuery.Result r) {
        int n = r.columns().size();
        int[] width = new int[n];
        List<String[]> cells = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            width[i] = r.columns().get(i).length();
        }
        for (List<Object> row : r.rows()) {
            String[] c = new String[n];
            for (int i = 0; i < n; i++) {
                Object v = row.get(i);
                c[i] = v == null ? "NULL" : v instanceof byte[] b ? "<" + b.length + " bytes>" : v.toString();
                width[i] = Math.max(width[i], c[i].length());
            }
            cells.add(c);
        }
        StringBuilder b = new StringBuilder();
        line(b, r.columns().toArray(new String[0]), width, null);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < n; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
        }
        b.append(rule).append('\n');
        for (int k = 0; k < cells.size(); k++) {
            line(b, cells.get(k), width, r.rows().get(k));
        }
        b.append(r.rows().size()).append(r.rows().size() == 1 ? " row" : " rows").append('\n');
        return b.toString();
    }

    private static void line(StringBuilder b, String[] c, int[] width, List<Object> values) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < c.length; i++) {
            boolean number = values != null && values.get(i) instanceof Number;
            String pad = " ".repeat(width[i] - c[i].length());
            l.append(i == 0 ? "" : "  ").append(number ? pad + c[i] : c[i] + pad);
        }
        b.append(l.toString().stripTrailing()).append('\n');
    }

    /** A JSON array with one object per row, keys the column labels. */
    static String json(ArchiveQuery.Result r) {
        StringBuilder b = new StringBuilder("[");
        for (int k = 0; k < r.rows().size(); k++) {
            b.append(k == 0 ? "\n  {" : ",\n  {");
            List<Object> row = r.rows().get(k);
            for (int i = 0; i < row.size(); i++) {
                b.append(i == 0 ? "" : ", ").append(quote(r.columns().get(i))).append(": ");
                Object v = row.get(i);
                if (v == null) {
                    b.append("null");
                } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
                    b.append(quote(d.toString()));
                } else if (v instanceof Number) {
                    b.append(v);
                } else if (v instanceof byte[] bytes) {
                    b.append(quote(java.util.Base64.getEncoder().encodeToString(bytes)));
                } else {
                    b.append(quote(v.toString()));
                }
            }
            b.append('}');
        }
        return b.append(r.rows().isEmpty() ? "]\n" : "\n]\n").toString();
    }

    private static String quote(String s) {
        return JsonText.quote(s);
    }
}
