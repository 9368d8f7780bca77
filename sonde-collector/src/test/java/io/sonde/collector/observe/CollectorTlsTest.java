package io.sonde.collector.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.collector.Collector;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.StreamSummary;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.live.ObserveStartup;
import io.sonde.core.live.observe.TlsContexts;
import io.sonde.format.stream.DeliveryCodec;
import io.sonde.format.stream.DeliveryMessage;
import io.sonde.format.stream.DeliveryProtocol;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the collector's agent data port, with a self-signed key pair made by keytool for the test:
 * an API monitor's acknowledged TCP writer with {@code tcp.tls=on} delivers every record through
 * it, a plain-text client is refused by the TLS port (and nothing of it is stored), and a
 * non-loopback bind without TLS is refused at start.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CollectorTlsTest {
    private static final String PASSWORD = "collector-store-pass";
    private static final String TOKEN = "collector-tls-token";

    @TempDir
    static Path keys;
    static Path keyStore;
    static Path trustStore;
    static Path passwordFile;

    @TempDir
    Path tmp;

    @BeforeAll
    static void selfSignedKeyPair() throws Exception {
        keyStore = keys.resolve("collector.p12");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-alias",
                "collector", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=collector", "-ext", "SAN=ip:127.0.0.1",
                "-validity", "2", "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(p.exitValue()).as("keytool: %s", out).isZero();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("collector", KeyStore.getInstance(keyStore.toFile(), PASSWORD.toCharArray()).getCertificate("collector"));
        trustStore = keys.resolve("trust.p12");
        try (OutputStream o = Files.newOutputStream(trustStore)) {
            trust.store(o, PASSWORD.toCharArray());
        }
        passwordFile = keys.resolve("store.password");
        ObserveStartup.writeTokenFile(passwordFile, PASSWORD);
    }

    private Collector tlsCollector(BlockingQueue<String> failures, BlockingQueue<StreamSummary> closed) throws Exception {
        SSLContext tls = TlsContexts.server(keyStore, passwordFile, "collector");
        return Collector.start(new Collector.Settings(new InetSocketAddress("127.0.0.1", 0), tmp.resolve("archive"),
                HandlerSet.byName(List.of("archive")), Map.of(), ReceiverLimits.defaults(), TOKEN, tls), new ReceiverListener() {
                    @Override
                    public void closed(String peer, StreamSummary stream) {
                        closed.add(stream);
                    }

                    @Override
                    public void failed(String peer, long offset, String problem, StreamSummary stream) {
                        failures.add(problem);
                    }
                }, line -> {});
    }

    @Test
    void anAgentWithTcpTlsDeliversEveryRecordThroughATlsPort() throws Exception {
        BlockingQueue<String> failures = new LinkedBlockingQueue<>();
        BlockingQueue<StreamSummary> closed = new LinkedBlockingQueue<>();
        Collector collector = tlsCollector(failures, closed);
        try {
            Path tokenFile = tmp.resolve("token");
            ObserveStartup.writeTokenFile(tokenFile, TOKEN);
            Map<String, String> settings = new HashMap<>();
            settings.put("writer", "tcp");
            settings.put("tcp.host", "127.0.0.1");
            settings.put("tcp.port", String.valueOf(collector.port()));
            settings.put("tcp.token.file", tokenFile.toString());
            settings.put("tcp.tls", "on");
            settings.put("tcp.tls.trust.store", trustStore.toString());
            settings.put("tcp.tls.trust.store.password.file", passwordFile.toString());
            settings.put("policy", "block-forever");
            Monitor m = MonitorAccess.start(SondeConfig.of(settings));
            UUID agent = m.agentId();
            MethodProbe probe = m.methodProbe("tls.App.call", "()V");
            for (int i = 0; i < 5000; i++) {
                boolean entered = probe.enter();
                probe.exit(entered);
            }
            m.close();
            assertThat(m.counters().dropped()).isZero();
            assertThat(m.counters().written()).isEqualTo(m.counters().produced()).isEqualTo(10_000);
            StreamSummary s = closed.poll(30, TimeUnit.SECONDS);
            assertThat(s).as("the stream ended cleanly; failures: %s", failures).isNotNull();
            assertThat(failures).isEmpty();
            assertThat(collector.receiverStatus().agents()).containsKey(agent);
            assertThat(collector.receiverStatus().agents().get(agent).frames()).isPositive();
            assertThat(collector.agents()).extracting(a -> a.agentId()).containsExactly(agent);
        } finally {
            collector.stop();
        }
    }

    @Test
    void aPlainTextClientIsRefusedByTheTlsPortAndNothingOfItIsStored() throws Exception {
        BlockingQueue<String> failures = new LinkedBlockingQueue<>();
        BlockingQueue<StreamSummary> closed = new LinkedBlockingQueue<>();
        Collector collector = tlsCollector(failures, closed);
        try (Socket plain = new Socket("127.0.0.1", collector.port())) {
            plain.setSoTimeout(20_000);
            OutputStream o = plain.getOutputStream();
            o.write(DeliveryProtocol.streamHeader());
            o.write(new DeliveryCodec(UUID.randomUUID(), 1, "plain").hello(new DeliveryMessage.Hello(TOKEN, -1, 0)));
            o.flush();
            // the TLS port answers no ACCEPT: it fails the handshake and closes (an alert at most, never a 2.2 stream header)
            InputStream in = plain.getInputStream();
            byte[] answer = in.readNBytes(12);
            assertThat(answer).isNotEqualTo(DeliveryProtocol.streamHeader());
            String problem = failures.poll(30, TimeUnit.SECONDS);
            assertThat(problem).isNotNull().contains("TLS");
            assertThat(collector.agents()).isEmpty();
            assertThat(collector.receiverStatus().agents()).isEmpty();
        } finally {
            collector.stop();
        }
    }

    @Test
    void aNonLoopbackBindWithoutTlsIsRefused() {
        assertThatThrownBy(() -> Collector.start(new Collector.Settings(new InetSocketAddress("0.0.0.0", 0), tmp.resolve("archive"),
                HandlerSet.byName(List.of("archive")), Map.of(), ReceiverLimits.defaults(), TOKEN), ReceiverListener.none(), line -> {}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0.0.0.0").hasMessageContaining("not a loopback address")
                .hasMessageContaining("needs TLS");
    }
}
