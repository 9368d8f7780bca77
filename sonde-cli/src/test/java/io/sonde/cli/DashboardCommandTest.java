package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde dashboard}'s refusals: they end the command at once with the documented exit codes. */
class DashboardCommandTest {
    @TempDir
    Path tmp;

    @Test
    void aFolderWithoutALogIsAnErrorNamingIt() throws Exception {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Object[] r = CliRun.run("dashboard", empty.toString(), "--port", "0");
        assertThat(r[0]).isEqualTo(1);
        assertThat((String) r[2]).contains(empty.toString(), "holds no .sonde file");
        Object[] missing = CliRun.run("dashboard", tmp.resolve("nowhere").toString(), "--port", "0");
        assertThat(missing[0]).isEqualTo(1);
        assertThat((String) missing[2]).contains("nowhere");
    }

    @Test
    void badCommandLinesAreUsageErrors() {
        Object[] port = CliRun.run("dashboard", tmp.toString(), "--port", "70000");
        assertThat(port[0]).isEqualTo(2);
        assertThat((String) port[2]).contains("--port must be between 0 and 65535, got 70000");
        assertThat(CliRun.run("dashboard", tmp.toString())[0]).isEqualTo(2); // --port is required
        Object[] cost = CliRun.run("dashboard", tmp.toString(), "--port", "0", "--probe-cost", "fast");
        assertThat(cost[0]).isEqualTo(2);
        assertThat((String) cost[2]).contains("--probe-cost");
    }
}
