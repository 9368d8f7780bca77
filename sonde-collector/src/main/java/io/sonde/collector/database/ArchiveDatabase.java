package io.sonde.collector.database;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.sqlite.SQLiteConfig;

/**
 * The archive's database: where it is and its schema. By default an embedded SQLite file
 * {@value #FILE_NAME} in the output folder (nothing to install); for a shared server any
 * PostgreSQL JDBC URL. The same schema and the same SQL serve both.
 *
 * <p>Tables (times: {@code *_ms} ms and {@code *_ns} ns since the epoch, durations ns):
 * <ul>
 *   <li>{@code agents}: agent_id, host, pid, first_seen_ms, last_seen_ms, status (connected, disconnected)</li>
 *   <li>{@code segments}: segment (the segment file relative to the output folder, or
 *       {@code connection-<n>@<collector start ms>} when nothing is archived), agent_id, connected_ms,
 *       first_frame_ns, last_frame_ns, frames, bytes, data_records, status (open, closed, aborted)</li>
 *   <li>{@code operation_minutes}: agent_id, operation, minute_ms (start of the minute the executions
 *       started in), calls, errors (exceptional exits), sum_ns, p50_ns, p90_ns, p99_ns, max_ns of the
 *       wall time from ENTER to EXIT</li>
 *   <li>{@code attribute_samples}: agent_id, time_ns, operation, name, value — sampled attribute
 *       values for the live layer (not filled yet)</li>
 * </ul>
 */
public final class ArchiveDatabase {
    /** The SQLite file in the output folder. */
    public static final String FILE_NAME = "archive.db";

    static final List<String> SCHEMA = List.of(
            "CREATE TABLE IF NOT EXISTS agents (agent_id VARCHAR(36) PRIMARY KEY, host VARCHAR(255) NOT NULL, pid BIGINT NOT NULL,"
                    + " first_seen_ms BIGINT NOT NULL, last_seen_ms BIGINT NOT NULL, status VARCHAR(16) NOT NULL)",
            "CREATE TABLE IF NOT EXISTS segments (segment VARCHAR(512) PRIMARY KEY, agent_id VARCHAR(36) NOT NULL, connected_ms BIGINT NOT NULL,"
                    + " first_frame_ns BIGINT, last_frame_ns BIGINT, frames BIGINT NOT NULL, bytes BIGINT NOT NULL,"
                    + " data_records BIGINT NOT NULL, status VARCHAR(16) NOT NULL)",
            "CREATE TABLE IF NOT EXISTS operation_minutes (agent_id VARCHAR(36) NOT NULL, operation VARCHAR(1024) NOT NULL,"
                    + " minute_ms BIGINT NOT NULL, calls BIGINT NOT NULL, errors BIGINT NOT NULL, sum_ns BIGINT NOT NULL,"
                    + " p50_ns BIGINT NOT NULL, p90_ns BIGINT NOT NULL, p99_ns BIGINT NOT NULL, max_ns BIGINT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS operation_minutes_agent_minute ON operation_minutes (agent_id, minute_ms)",
            "CREATE INDEX IF NOT EXISTS segments_agent ON segments (agent_id)",
            "CREATE TABLE IF NOT EXISTS attribute_samples (agent_id VARCHAR(36) NOT NULL, time_ns BIGINT NOT NULL,"
                    + " operation VARCHAR(1024), name VARCHAR(255) NOT NULL, value VARCHAR(4096))");

    private ArchiveDatabase() {}

    /** The JDBC URL of the embedded database of an output folder. */
    public static String sqliteUrl(Path out) {
        return "jdbc:sqlite:" + out.resolve(FILE_NAME).toAbsolutePath();
    }

    /** True for an SQLite URL. */
    public static boolean isSqlite(String url) {
        return url.startsWith("jdbc:sqlite:");
    }

    /**
     * Opens a connection for writing and creates the schema if missing: SQLite in WAL mode (readers
     * such as {@code sonde query} do not block the collector), autocommit off (the handler commits
     * its batches).
     */
    public static Connection openForWriting(String url) throws SQLException {
        Connection c;
        if (isSqlite(url)) {
            SQLiteConfig cfg = new SQLiteConfig();
            cfg.setJournalMode(SQLiteConfig.JournalMode.WAL);
            cfg.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL); // with WAL: durable at checkpoints, never corrupt
            cfg.setBusyTimeout(10_000);
            c = cfg.createConnection(url);
        } else {
            c = DriverManager.getConnection(url, new Properties());
        }
        try (Statement s = c.createStatement()) {
            for (String ddl : SCHEMA) {
                s.execute(ddl);
            }
        }
        c.setAutoCommit(false);
        return c;
    }

    /**
     * Opens the embedded database of an output folder read-only (SQLite refuses every write on it).
     *
     * @throws SQLException if the folder has no {@value #FILE_NAME}
     */
    public static Connection openReadOnly(Path out) throws SQLException {
        Path file = out.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            throw new SQLException("no archive database " + file + " (the collector writes it when its database handler runs)");
        }
        SQLiteConfig cfg = new SQLiteConfig();
        cfg.setReadOnly(true);
        cfg.setBusyTimeout(10_000);
        return cfg.createConnection(sqliteUrl(out));
    }

    /** Opens a connection on any JDBC URL for reading only (PostgreSQL: a read-only transaction). */
    public static Connection openReadOnly(String url) throws SQLException {
        if (isSqlite(url)) {
            SQLiteConfig cfg = new SQLiteConfig();
            cfg.setReadOnly(true);
            return cfg.createConnection(url);
        }
        Connection c = DriverManager.getConnection(url, new Properties());
        c.setReadOnly(true);
        c.setAutoCommit(false);
        return c;
    }
}
