package io.sonde.observer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.format.observe.LiveFrameInput;
import io.sonde.format.observe.LiveFrameWriter;
import io.sonde.format.observe.ObserveCodec;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.format.observe.PayloadReader;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client against an endpoint of an older release: a scripted endpoint that speaks observe
 * protocol versions 1 to {@code newest} only, answering as docs/observe-protocol.md says (a HELLO
 * of a version it does not speak gets ERROR 2 VERSION naming the versions it speaks, and the
 * connection closes; PROBE_LIST on a version 1 or 2 connection gets ERROR 9).
 */
class ObserverClientFallbackTest {
    private static final String TOKEN = "tok";

    private ScriptedEndpoint endpoint;

    @AfterEach
    void stop() throws IOException {
        if (endpoint != null) endpoint.close();
    }

    private static final Observer QUIET = new Observer() {
        @Override
        public void onEvents(int subscription, List<ObservedEvent> events) {}
    };

    @Test
    void aVersion2EndpointIsSpokenToInVersion2AndProbeListingIsRefusedClearly() throws Exception {
        endpoint = ScriptedEndpoint.start(2);
        try (ObserverClient c = ObserverClient.connect("127.0.0.1", endpoint.port(), TOKEN, QUIET)) {
            c.timeout(Duration.ofSeconds(60));
            assertThat(c.protocolVersion()).isEqualTo(2);
            assertThat(c.connectionId()).as("version 2 tells the connection id").isEqualTo(ScriptedEndpoint.CONNECTION_ID);
            assertThat(c.suspend("jvm/**")).as("a version 2 request works").isEqualTo(3);
            assertThat(c.disableProbes("com.shop.*")).isEqualTo(3);
            assertThatThrownBy(() -> c.probes("*", 0, 10)).isInstanceOfSatisfying(ObserveException.class, e -> {
                assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_NOT_IN_VERSION);
                assertThat(e.getMessage()).isEqualTo("endpoint speaks observe protocol 2: probe listing needs 3");
            });
        }
        // the first HELLO asked for 3 and was refused; the second asked for 2, each as request 1 with the token
        assertThat(endpoint.hellos).containsExactly("request 1, version 3, token tok", "request 1, version 2, token tok");
        assertThat(endpoint.requests).as("probe listing was not sent to the endpoint").containsExactly("SUSPEND", "PROBES_OFF");
    }

    @Test
    void aWrongTokenIsNotRetried() throws Exception {
        endpoint = ScriptedEndpoint.start(2);
        assertThatThrownBy(() -> ObserverClient.connect("127.0.0.1", endpoint.port(), "wrong", QUIET))
                .isInstanceOfSatisfying(ObserveException.class, e -> assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_BAD_TOKEN));
        assertThat(endpoint.hellos).containsExactly("request 1, version 3, token wrong", "request 1, version 2, token wrong");
    }

    @Test
    void anEndpointThatSpeaksNeither3Nor2GetsItsVersionErrorThrough() throws Exception {
        endpoint = ScriptedEndpoint.start(1);
        assertThatThrownBy(() -> ObserverClient.connect("127.0.0.1", endpoint.port(), TOKEN, QUIET))
                .isInstanceOfSatisfying(ObserveException.class, e -> {
                    assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_VERSION);
                    assertThat(e.getMessage()).isEqualTo("protocol version 2 is not spoken here (this endpoint speaks 1 to 1)");
                });
        assertThat(endpoint.hellos).containsExactly("request 1, version 3, token tok", "request 1, version 2, token tok");
    }

    /** An observe endpoint of an older release, scripted: versions 1 to {@code newest}, one connection at a time. */
    private static final class ScriptedEndpoint implements AutoCloseable {
        static final int CONNECTION_ID = 7;
        final List<String> hellos = new CopyOnWriteArrayList<>();
        final List<String> requests = new CopyOnWriteArrayList<>();
        private final ServerSocket server;
        private final int newest;
        private final Thread thread;

        private ScriptedEndpoint(int newest) throws IOException {
            this.newest = newest;
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.thread = new Thread(this::serve, "scripted-observe-endpoint");
            thread.setDaemon(true);
        }

        static ScriptedEndpoint start(int newest) throws IOException {
            ScriptedEndpoint e = new ScriptedEndpoint(newest);
            e.thread.start();
            return e;
        }

        int port() {
            return server.getLocalPort();
        }

        private void serve() {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    s.setSoTimeout(60_000);
                    converse(s);
                } catch (IOException e) {
                    // closed, or the client left: next connection
                }
            }
        }

        private void converse(Socket s) throws IOException {
            LiveFrameInput in = new LiveFrameInput(s.getInputStream(), "client");
            OutputStream out = s.getOutputStream();
            LiveFrameWriter w = new LiveFrameWriter(new UUID(0, 1), 1, "scripted");
            out.write(LiveFrameWriter.streamHeader());
            if (!in.readStreamHeader()) return;
            PayloadReader hello = in.next();
            if (hello == null || hello.type() != ObserveProtocol.HELLO) return;
            int request = hello.u32();
            int version = hello.u16();
            String token = hello.str();
            hello.end();
            hellos.add("request " + request + ", version " + version + ", token " + token);
            if (version < 1 || version > newest) {
                ObserveCodec.error(w, request, ObserveProtocol.ERR_VERSION, "protocol version " + version + " is not spoken here (this endpoint speaks 1 to "
                        + newest + ")");
                send(w, out);
                return; // and close
            }
            if (!token.equals(TOKEN)) {
                ObserveCodec.error(w, request, ObserveProtocol.ERR_BAD_TOKEN, "wrong token");
                send(w, out);
                return;
            }
            ObserveCodec.ok(w, request, CONNECTION_ID);
            send(w, out);
            for (PayloadReader r; (r = in.next()) != null; ) {
                int type = r.type();
                int req = r.u32();
                requests.add(ObserveProtocol.messageName(type));
                if (type == ObserveProtocol.PROBE_LIST) {
                    ObserveCodec.error(w, req, ObserveProtocol.ERR_NOT_IN_VERSION, "PROBE_LIST is not in protocol version " + version);
                } else {
                    ObserveCodec.ok(w, req, 3);
                }
                send(w, out);
            }
        }

        private static void send(LiveFrameWriter w, OutputStream out) throws IOException {
            w.writeTo(out);
            out.flush();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
