package io.sonde.collector.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.collector.Collector;
import io.sonde.collector.database.ArchiveDatabase;
import io.sonde.collector.database.ArchiveQuery;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.receive.ReceiverListener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database handler against a real PostgreSQL server: a throwaway cluster (Debian's
 * postgresql-15 binaries) started in a temporary folder on a free loopback port, stopped and
 * deleted afterwards. When no server can be started here the test is skipped, saying why.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PostgresArchiveTest {
    private static final Path BIN = Path.of(System.getProperty("sonde.test.pg.bin", "/usr/lib/postgresql/15/bin"));
    private static Path cluster;
    private static int port;
    private static boolean asPostgres;

    @TempDir
    Path out;

    @BeforeAll
    static void startServer() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(BIN.resolve("initdb")) && Files.isExecutable(BIN.resolve("pg_ctl")),
                "PostgreSQL test skipped: no initdb/pg_ctl in " + BIN + " (install postgresql-15 or set -Dsonde.test.pg.bin)");
        asPostgres = "root".equals(System.getProperty("user.name")); // the server refuses to run as root
        cluster = Files.createTempDirectory("sonde-pg-");
        if (asPostgres) {
            Result chown = run(List.of("chown", "postgres:postgres", cluster.toString()));
            Assumptions.assumeTrue(chown.code == 0, "PostgreSQL test skipped: cannot give " + cluster + " to user postgres: " + chown.output);
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path data = cluster.resolve("data");
        Result init = pg(BIN.resolve("initdb") + " -D " + data + " -A trust -U postgres --no-sync");
        Assumptions.assumeTrue(init.code == 0, "PostgreSQL test skipped: initdb failed: " + init.output);
        Result start = pg(BIN.resolve("pg_ctl") + " -D " + data + " -l " + cluster.resolve("server.log") + " -w -t 60 -o '-p " + port + " -k " + cluster
                + " -c listen_addresses=127.0.0.1 -c fsync=off' start");
        Assumptions.assumeTrue(start.code == 0, "PostgreSQL test skipped: the server did not start: " + start.output + " " + log());
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (cluster == null) {
            return;
        }
        if (Files.isDirectory(cluster.resolve("data"))) {
            pg(BIN.resolve("pg_ctl") + " -D " + cluster.resolve("data") + " -m immediate -w stop");
        }
        try (Stream<Path> all = Files.walk(cluster)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    @Test
    void theSameSchemaAndAggregatesInPostgresql() throws Exception {
        List<String> notices = new CopyOnWriteArrayList<>();
        Collector c = Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out,
                HandlerSet.byName(List.of("archive", "database")), Map.of("database.url", url())), ReceiverListener.none(), notices::add);
        Map<UUID, Long> produced;
        try {
            produced = CollectorTest.runAgents(c.port(), 1, 2, 300, 2);
            CollectorTest.awaitTrailers(c, produced.keySet());
        } finally {
            c.stop();
        }
        assertThat(notices).isEmpty();
        assertThat(out.resolve(ArchiveDatabase.FILE_NAME)).as("nothing written to SQLite").doesNotExist();
        try (Connection db = ArchiveDatabase.openReadOnly(url()); Statement st = db.createStatement()) {
            try (ResultSet r = st.executeQuery("SELECT COUNT(*), MIN(status), MAX(status) FROM agents")) {
                r.next();
                assertThat(r.getLong(1)).isEqualTo(3);
                assertThat(r.getString(2)).isEqualTo("disconnected").isEqualTo(r.getString(3));
            }
            for (UUID agent : produced.keySet()) {
                try (ResultSet r = st.executeQuery("SELECT SUM(data_records) FROM segments WHERE agent_id = '" + agent + "'")) {
                    r.next();
                    assertThat(r.getLong(1)).isEqualTo(produced.get(agent));
                }
                assertThat(CollectorTest.minutesInDatabase(st, agent.toString()))
                        .isEqualTo(CollectorTest.minutesFromSegmentFiles(out.resolve(agent.toString())));
            }
            db.rollback();
            ArchiveQuery.Result top = ArchiveQuery.run(db, ArchiveQuery.topOperations(null, null, null, 3), 0);
            assertThat(top.columns()).containsExactly("operation", "calls", "errors", "total_ns", "mean_ns", "max_ns");
            assertThat(top.rows()).hasSize(3);
            db.rollback();
            assertThatThrownBy(() -> ArchiveQuery.run(db, "WITH gone AS (DELETE FROM agents RETURNING agent_id) SELECT * FROM gone", 0))
                    .isInstanceOf(ArchiveQuery.Refused.class).hasMessageContaining("read-only");
        }
    }

    private static Result pg(String command) throws Exception {
        return asPostgres ? run(List.of("su", "postgres", "-c", command)) : run(List.of("sh", "-c", command));
    }

    private record Result(int code, String output) {}

    private static Result run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] o = p.getInputStream().readAllBytes();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, "timed out: " + command);
        }
        return new Result(p.exitValue(), new String(o, StandardCharsets.UTF_8).trim());
    }

    private static String log() {
        try {
            return Files.readString(cluster.resolve("server.log"));
        } catch (IOException e) {
            return "";
        }
    }
}
