package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.collector.Collector;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde demo --collector HOST:PORT --token-file F}: the demo's records end up in the collector's archive. */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DemoToCollectorTest {
    @TempDir
    Path dir;

    @Test
    void theDemoSendsItsRecordsToATokenCheckingCollector() throws Exception {
        Path token = dir.resolve("token");
        Files.createFile(token, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(token, "demo-token\n");
        Path archive = dir.resolve("archive");
        Collector c = Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), archive,
                HandlerSet.byName(List.of("archive")), Map.of(), ReceiverLimits.defaults(), "demo-token"), ReceiverListener.none(), line -> {});
        Object[] r;
        try {
            r = CliRun.run("demo", "--collector", "127.0.0.1:" + c.port(), "--token-file", token.toString(), "--orders", "300", "--threads",
                    "2");
        } finally {
            c.stop();
        }
        assertThat(r[0]).as("exit; stderr %s", r[2]).isEqualTo(0);
        Matcher m = Pattern.compile("records produced (\\d+), written (\\d+), dropped 0").matcher((String) r[1]);
        assertThat(m.find()).as((String) r[1]).isTrue();
        long produced = Long.parseLong(m.group(1));
        assertThat(Long.parseLong(m.group(2))).isEqualTo(produced);
        List<AgentLog> logs = SondeLogs.scan(archive);
        assertThat(logs).hasSize(1);
        long read = 0;
        try (SondeReader reader = logs.get(0).open()) {
            while (reader.next()) {
                if (Format.isDataRecord(reader.type())) read++;
            }
            assertThat(reader.trailer()).isNotNull();
            assertThat(reader.trailer().written()).isEqualTo(produced);
        }
        assertThat(read).isEqualTo(produced);
    }

    @Test
    void aCollectorAddressWithoutPortOrATokenWithoutCollectorIsAUsageError() {
        assertThat(CliRun.run("demo", "--collector", "localhost")[0]).isEqualTo(2);
        assertThat(CliRun.run("demo", "--token-file", "t")[0]).isEqualTo(2);
    }
}
