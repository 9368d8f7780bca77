package io.sonde.collector.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.collector.database.ArchiveDatabase;
import io.sonde.collector.database.ArchiveQuery;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sonde query's guard: one reading statement, on a database opened read-only. */
class ArchiveQueryTest {
    @TempDir
    Path out;

    @Test
    void writesAndSeveralStatementsAreRefusedAndNothingChanges() throws Exception {
        try (Connection c = ArchiveDatabase.openForWriting(ArchiveDatabase.sqliteUrl(out)); Statement s = c.createStatement()) {
            s.execute("INSERT INTO agents VALUES ('a', 'h', 1, 0, 0, 'disconnected')");
            c.commit();
        }
        for (String write : new String[] {"DELETE FROM agents", "  drop table agents;", "INSERT INTO agents VALUES ('b','h',1,0,0,'x')",
                "PRAGMA journal_mode=DELETE", "/* hi */ UPDATE agents SET pid = 2", "ATTACH DATABASE 'x.db' AS x"}) {
            assertThatThrownBy(() -> ArchiveQuery.run(out, write, 0)).as(write).isInstanceOf(ArchiveQuery.Refused.class)
                    .hasMessageContaining("only reading statements are allowed");
        }
        assertThatThrownBy(() -> ArchiveQuery.run(out, "SELECT 1; DELETE FROM agents", 0)).isInstanceOf(ArchiveQuery.Refused.class)
                .hasMessage("one statement only; found more after ';' at character 9");
        // a write hidden behind WITH passes the first check; the read-only database refuses it
        assertThatThrownBy(() -> ArchiveQuery.run(out, "WITH x AS (SELECT 1) DELETE FROM agents", 0)).isInstanceOf(ArchiveQuery.Refused.class)
                .hasMessageContaining("opened read-only and the statement writes");
        assertThatThrownBy(() -> ArchiveQuery.run(out, "  ", 0)).hasMessage("no statement given");

        ArchiveQuery.Result r = ArchiveQuery.run(out, "SELECT agent_id, pid, 'a;b' AS t FROM agents -- a comment; DELETE", 0);
        assertThat(r.columns()).containsExactly("agent_id", "pid", "t");
        assertThat(r.rows()).containsExactly(java.util.List.of("a", 1L, "a;b"));
    }

    @Test
    void aFolderWithoutDatabaseIsNamed() {
        assertThatThrownBy(() -> ArchiveQuery.run(out, "SELECT 1", 0)).hasMessageContaining("no archive database " + out.resolve("archive.db"));
    }
}
