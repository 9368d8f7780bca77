package io.sonde.collector.database;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Read-only SQL on an archive database ({@code sonde query}). Two guards: the statement must be a
 * single query (it starts with SELECT, WITH, VALUES or EXPLAIN, and nothing follows its end), and
 * the database is opened read-only, so that a write hidden in a query (e.g. {@code WITH … DELETE})
 * is refused by the database itself.
 */
public final class ArchiveQuery {
    private static final Set<String> READING = Set.of("SELECT", "WITH", "VALUES", "EXPLAIN");

    private ArchiveQuery() {}

    /**
     * A result: column names and rows of values (Long, Double, String, byte[] or null).
     *
     * @param columns column labels in order
     * @param rows one list of values per row
     */
    public record Result(List<String> columns, List<List<Object>> rows) {}

    /** Refused statement: a write, several statements, or nothing. The message says which. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /** Runs a query on the SQLite database of an output folder. */
    public static Result run(Path out, String sql, int maxRows) throws Refused, SQLException {
        check(sql);
        try (Connection c = ArchiveDatabase.openReadOnly(out)) {
            return run(c, sql, maxRows);
        }
    }

    /** Runs a query on a connection (opened read-only by the caller), after the same check. */
    public static Result run(Connection c, String sql, int maxRows) throws Refused, SQLException {
        check(sql);
        try (Statement s = c.createStatement()) {
            if (maxRows > 0) {
                s.setMaxRows(maxRows);
            }
            try (ResultSet rs = s.executeQuery(sql)) {
                ResultSetMetaData md = rs.getMetaData();
                List<String> columns = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    columns.add(md.getColumnLabel(i));
                }
                List<List<Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>(columns.size());
                    for (int i = 1; i <= columns.size(); i++) {
                        Object v = rs.getObject(i);
                        row.add(v instanceof Integer n ? Long.valueOf(n) : v instanceof Float f ? Double.valueOf(f) : v);
                    }
                    rows.add(row);
                }
                return new Result(columns, rows);
            }
        } catch (SQLException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("readonly") || m.contains("read-only") || m.contains("read only")) {
                throw new Refused("the archive database is opened read-only and the statement writes: " + m);
            }
            throw e;
        }
    }

    /**
     * Refuses what is not one reading statement.
     *
     * @throws Refused naming the statement's first word, or the text after the first statement
     */
    public static void check(String sql) throws Refused {
        String body = stripComments(sql).trim();
        while (body.endsWith(";")) {
            body = body.substring(0, body.length() - 1).trim();
        }
        if (body.isEmpty()) {
            throw new Refused("no statement given");
        }
        int semicolon = topLevelSemicolon(body);
        if (semicolon >= 0) {
            throw new Refused("one statement only; found more after ';' at character " + (semicolon + 1));
        }
        String first = body.replaceFirst("^[\\s(]+", "").split("[^A-Za-z]", 2)[0].toUpperCase(Locale.ROOT);
        if (!READING.contains(first)) {
            throw new Refused("only reading statements are allowed (SELECT, WITH, VALUES, EXPLAIN); '" + first + "' is refused: the archive is read-only here");
        }
    }

    /** Removes -- and block comments outside string literals. */
    private static String stripComments(String sql) {
        StringBuilder b = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"') {
                int end = endOfQuoted(sql, i);
                b.append(sql, i, end);
                i = end;
            } else if (sql.startsWith("--", i)) {
                int nl = sql.indexOf('\n', i);
                i = nl < 0 ? sql.length() : nl;
                b.append(' ');
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
                b.append(' ');
            } else {
                b.append(ch);
                i++;
            }
        }
        return b.toString();
    }

    private static int topLevelSemicolon(String sql) {
        int i = 0;
        while (i < sql.length()) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"') {
                i = endOfQuoted(sql, i);
            } else if (ch == ';') {
                return i;
            } else {
                i++;
            }
        }
        return -1;
    }

    /** Index just past the quoted text starting at {@code start} (a doubled quote stays inside). */
    private static int endOfQuoted(String sql, int start) {
        char q = sql.charAt(start);
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == q) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == q) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /** The top-operations query: per operation over the given agent and time range, by total wall time. */
    public static String topOperations(String agent, Long fromMillis, Long toMillis, int limit) {
        StringBuilder where = new StringBuilder();
        if (agent != null) {
            where.append(" AND agent_id = '").append(agent.replace("'", "''")).append('\'');
        }
        if (fromMillis != null) {
            where.append(" AND minute_ms >= ").append(fromMillis);
        }
        if (toMillis != null) {
            where.append(" AND minute_ms < ").append(toMillis);
        }
        return "SELECT operation, SUM(calls) AS calls, SUM(errors) AS errors, SUM(sum_ns) AS total_ns,"
                + " SUM(sum_ns) / SUM(calls) AS mean_ns, MAX(max_ns) AS max_ns FROM operation_minutes WHERE calls > 0" + where
                + " GROUP BY operation ORDER BY total_ns DESC, operation LIMIT " + limit;
    }
}
