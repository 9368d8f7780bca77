package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit codes of the sonde command: 2 when the command line does not parse (unknown option or
 * command, a value of the wrong type, a missing parameter, mutually exclusive options), 1 when a
 * run fails, 0 on success; every error is one line on stderr without a stack trace.
 */
class ExitCodesTest {

    @TempDir
    Path tmp;

    /** Runs sonde and checks the exit code and that stderr is one line starting with {@code prefix}. */
    private static String expect(int code, String prefix, String... args) {
        Object[] r = CliRun.run(args);
        String err = (String) r[2];
        assertThat(r[0]).as("exit code of %s; stderr: %s", String.join(" ", args), err).isEqualTo(code);
        assertThat(err).startsWith(prefix).doesNotContain("\tat ");
        assertThat(err.strip().lines()).as("one line: %s", err).hasSize(1);
        return err;
    }

    @Test
    void usageErrorsExitWith2() {
        expect(2, "sonde: unknown command 'flip': use help, demo, receive, dump, analyze", "flip");
        expect(2, "sonde dump: Missing required parameter: 'FILE|DIR'", "dump");
        expect(2, "sonde analyze: Unknown option: '--nope'", "analyze", tmp.toString(), "--nope");
        expect(2, "sonde dump: Invalid value for option '--limit'", "dump", "x", "--limit", "many");
        expect(2, "sonde receive: Missing required option: '--port=N'", "receive", "--out", tmp.toString());
        expect(2, "sonde attach: Missing required option: '--pid=PID'", "attach");
    }

    @Test
    void mutuallyExclusiveOptionsAreUsageErrors() {
        assertThat(expect(2, "sonde analyze: ", "analyze", tmp.toString(), "--demands", "--demands-json", "d.json"))
                .contains("--demands", "--demands-json=FILE", "mutually exclusive");
        assertThat(expect(2, "sonde analyze: ", "analyze", tmp.toString(), "--probe-cost", "40", "--calibrate"))
                .contains("mutually exclusive");
        assertThat(expect(2, "sonde analyze: ", "analyze", tmp.toString(), "--calibrate-cpu"))
                .contains("Missing required argument", "--calibrate");
        assertThat(expect(2, "sonde simulate: ", "simulate", "middleware", "--strategy", "thread-pool", "--clients", "2",
                "--arrivals", "poisson:10/s", "--servant-cpu", "5ms")).contains("--clients", "--arrivals", "mutually exclusive");
        assertThat(expect(2, "sonde simulate: ", "simulate", "middleware", "--strategy", "thread-pool", "--clients", "2",
                "--servant-cpu", "5ms", "--servant-delay", "5ms")).contains("--servant-cpu", "--servant-delay", "mutually exclusive");
    }

    @Test
    void failedRunsExitWith1() {
        expect(1, "sonde dump: " + tmp.resolve("nope.sonde"), "dump", tmp.resolve("nope.sonde").toString());
        expect(1, "sonde analyze: ", "analyze", tmp.resolve("missing").toString(), "--no-progress");
        long gone = ProcessHandle.allProcesses().mapToLong(ProcessHandle::pid).max().orElse(1) + 100_000;
        expect(1, "sonde probes status: no process with pid " + gone, "probes", "--pid", Long.toString(gone), "status");
        expect(1, "sonde attach: ", "attach", "--pid", Long.toString(gone), "--agent", tmp.resolve("missing.jar").toString());
    }

    @Test
    void valuesRejectedAfterParsingAreUsageErrors() {
        expect(2, "sonde simulate: give exactly one of --servant-cpu DURATION and --servant-delay DURATION",
                "simulate", "middleware", "--strategy", "thread-pool", "--clients", "2");
        expect(2, "sonde receive: --port must be between 0 and 65535, got 70000", "receive", "--port", "70000", "--out", tmp.toString());
        expect(2, "sonde dump: --limit must be 0 or more, got -3", "dump", tmp.toString(), "--limit", "-3");
        expect(2, "sonde analyze: --top must not be negative: -1", "analyze", tmp.toString(), "--top", "-1", "--no-progress");
        expect(2, "sonde demo: --threads must be between 1 and 256, got 0", "demo", "--threads", "0", "--out", tmp.toString());
    }

    @Test
    void successExitsWith0() {
        Object[] version = CliRun.run("--version");
        assertThat(version[0]).isEqualTo(0);
        assertThat((String) version[1]).startsWith("sonde ");
        Object[] help = CliRun.run("help", "probes");
        assertThat(help[0]).isEqualTo(0);
        assertThat((String) help[1]).contains("list", "enable", "disable", "status", "--pid=PID");
    }
}
