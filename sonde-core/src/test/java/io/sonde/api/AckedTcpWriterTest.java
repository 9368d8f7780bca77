package io.sonde.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.DropReason;
import io.sonde.format.read.FrameInput;
import io.sonde.format.stream.DeliveryCodec;
import io.sonde.format.stream.DeliveryMessage;
import io.sonde.format.stream.DeliveryProtocol;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The acknowledged tcp writer against a collector that accepts but never acknowledges, and its token file. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AckedTcpWriterTest {
    @TempDir
    Path dir;

    @Test
    void underTheDropPolicyAFullResendBufferDropsFramesCountedWithTheirReason() throws Exception {
        AtomicReference<DeliveryMessage> hello = new AtomicReference<>();
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread collector = new Thread(() -> {
                try (Socket s = server.accept()) {
                    FrameInput in = new FrameInput(s.getInputStream(), "agent");
                    in.readStreamHeader();
                    in.nextFrame();
                    hello.set(DeliveryCodec.decode(in.header(), in.frameBytes()));
                    OutputStream out = s.getOutputStream();
                    out.write(DeliveryProtocol.streamHeader());
                    out.write(new DeliveryCodec(in.header().agentId(), 1, "").accept(DeliveryProtocol.NONE));
                    InputStream raw = s.getInputStream();
                    byte[] sink = new byte[65536];
                    while (raw.read(sink) >= 0) {
                        // read everything, acknowledge nothing
                    }
                } catch (Exception e) {
                    // the agent closed
                }
            }, "never-acknowledging-collector");
            collector.setDaemon(true);
            collector.start();
            Map<String, String> c = new HashMap<>();
            c.put("writer", "tcp");
            c.put("tcp.port", String.valueOf(server.getLocalPort()));
            c.put("tcp.resend.mib", "1");
            c.put("policy", "drop");
            c.put("frame.bytes", "4096");
            c.put("flush.interval.ms", "5");
            c.put("shutdown.timeout.ms", "1000");
            Monitor m = MonitorAccess.start(SondeConfig.of(c));
            MethodProbe p = m.methodProbe("a.B.c", "()V");
            // Paced so the rings never overflow (buffer-full drops on a busy machine, seen once): what
            // is dropped must be dropped by the full resend buffer, never acknowledged here.
            for (int chunk = 0; chunk < 200; chunk++) {
                for (int i = 0; i < 1_000; i++) {
                    p.exit(p.enter());
                }
                long deadline = System.nanoTime() + 2_000_000_000L;
                while (m.counters().inFlight() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
            }
            m.close();
            Counters counts = m.counters();
            assertThat(hello.get()).isEqualTo(new DeliveryMessage.Hello("", DeliveryProtocol.NONE, 0));
            assertThat(counts.produced()).isEqualTo(400_000);
            assertThat(counts.dropped(DropReason.RESEND_BUFFER_FULL)).as("%s", counts).isPositive();
            assertThat(counts.written()).as("about 1 MiB of records sent and kept, %s", counts).isBetween(10_000L, 200_000L);
            assertThat(counts.written() + counts.dropped()).isEqualTo(counts.produced());
        }
    }

    @Test
    void aTokenFileOthersMayReadIsRefusedAtStartNamingTheFile() throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "s3cret\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
        Map<String, String> c = Map.of("writer", "tcp", "tcp.token.file", token.toString());
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(c))).hasMessageContaining("token file " + token)
                .hasMessageContaining("chmod 600");
        Map<String, String> noAck = Map.of("writer", "tcp", "tcp.ack", "false", "tcp.token.file", token.toString());
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(noAck))).hasMessageContaining("tcp.token.file needs tcp.ack=true");
    }
}
