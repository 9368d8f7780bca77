package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code file.maxsize} in a real JVM under the agent: the folder stays within the bound plus one
 * segment, the segments left are the newest ones without a hole, and what is left reads to its
 * trailer, whose counts show every record was written (the missing ones were deleted, not lost).
 */
class BoundedRecordingIT {
    @TempDir
    Path dir;

    @Test
    void maxsizeHoldsTheFolderUnderItsLimitAndTheRestReadsToTheTrailer() throws Exception {
        int segment = 16 << 10;
        long max = 64 << 10;
        String options = "include=" + TcpFaultsIT.APP + "$Target.*,file.dir=" + dir + ",file.segment.bytes=" + segment
                + ",frame.bytes=4096,file.maxsize=64k"
                + ",policy=block-forever"; // the trailer must count every record written: no drop under load
        String stderr;
        try (AgentJvm p = AgentJvm.start(options, AgentProcess.TEST_CLASSES, TcpFaultsIT.APP, "calls", "100000")) {
            p.awaitLine("done");
            assertThat(p.awaitExit()).as(p.stderr()).isZero();
            stderr = p.stderr();
        }
        List<Path> files;
        try (var s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        long bytes = 0;
        for (Path f : files) bytes += Files.size(f);
        assertThat(bytes).as(files.toString()).isLessThanOrEqualTo(max + segment);

        List<AgentLog> logs = SondeLogs.scan(dir);
        assertThat(logs).hasSize(1);
        List<Integer> indexes = logs.get(0).segmentIndexes();
        int first = indexes.get(0);
        assertThat(first).as("segments deleted").isGreaterThan(10);
        for (int i = 0; i < indexes.size(); i++) assertThat(indexes.get(i)).isEqualTo(first + i);
        assertThat(stderr).contains("deleted segment").contains("file.maxsize=65536 bytes");
        long enters = 0;
        long firstSequence = -1;
        try (SondeReader r = logs.get(0).open()) {
            while (r.next()) {
                if (firstSequence < 0) firstSequence = r.frame().sequence();
                if (r.type() == Format.ENTER) enters++;
            }
            assertThat(r.end().complete()).as(String.valueOf(r.end())).isTrue();
            assertThat(r.trailer().written()).isEqualTo(r.trailer().produced()).isEqualTo(200_000);
        }
        assertThat(firstSequence).as("a trimmed log starts after sequence 0, not as a new run; first index " + first).isPositive();
        assertThat(enters).isPositive().isLessThan(100_000);
    }
}
