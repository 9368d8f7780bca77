package io.sonde.collector.observe;

import io.sonde.collector.naming.AgentDirectory;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.core.live.observe.ObserveRelay;
import io.sonde.format.observe.LiveFrameInput;
import io.sonde.format.observe.LiveFrameWriter;
import io.sonde.format.observe.ObserveCodec;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.PayloadReader;
import io.sonde.format.read.FrameInput;
import io.sonde.format.stream.ObserveEndpoint;
import io.sonde.format.stream.TlsSockets;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * Relays an observer's session to an agent's own observe endpoint (docs/collector.md, "Relay"):
 * finds the agent the RELAY names in the directory, dials the observe endpoint its HELLO announced,
 * authenticates there with the collector's agent token, forwards the agent's OK, and from then on
 * passes whole frames unchanged both ways (envelope checked on the way). The observer's requests
 * go on with the frame numbers they have, after the collector's HELLO as the agent side's frame 0.
 *
 * <p>QoS stays the agent's: nothing is queued here. A relay thread blocked writing to an observer
 * that stops reading stops reading the agent's socket, so the agent's session for this connection
 * fills and counts its overflow, exactly as for a direct observer that stops reading.
 */
public final class AgentRelay implements ObserveRelay {
    /** Timeout of the connection to the agent's endpoint and of its answer to HELLO. */
    static final int AGENT_TIMEOUT_MS = 10_000;

    private final AgentDirectory directory;
    private final String agentToken;
    /** Trust for agents' TLS observe endpoints; null: the JVM's default trust store. */
    private final SSLContext agentTls;
    private final AtomicInteger open = new AtomicInteger();
    private final UUID relayId = UUID.randomUUID();

    /**
     * @param agentToken the token of the agents' observe endpoints ({@code --agent-token-file}); null: relaying is refused
     *     with a message saying so
     */
    public AgentRelay(AgentDirectory directory, String agentToken) {
        this(directory, agentToken, null);
    }

    /**
     * As {@link #AgentRelay(AgentDirectory, String)}; agents that announced a TLS observe endpoint
     * (HELLO observe flag TLS) are dialled with TLS trusting {@code agentTls} ({@code --agent-trust-store};
     * null: the JVM's default trust store), and each agent's certificate must name the host it announced.
     */
    public AgentRelay(AgentDirectory directory, String agentToken, SSLContext agentTls) {
        this.directory = directory;
        this.agentToken = agentToken;
        this.agentTls = agentTls;
    }

    /** Relayed sessions open now. */
    public int open() {
        return open.get();
    }

    @Override
    public void relay(Session s) throws IOException {
        AgentInfo agent = find(s);
        if (agent == null) return;
        ObserveEndpoint e = agent.observe();
        String name = "agent " + agent.agentId();
        if (e == null) {
            s.error(s.request(), ObserveProtocol.ERR_UNAVAILABLE, name + " announced no observe endpoint (it needs observe=on and"
                    + " writer=tcp; an agent older than format 2.3 announces none)");
            return;
        }
        if (AgentInfo.DISCONNECTED.equals(agent.status())) {
            s.error(s.request(), ObserveProtocol.ERR_UNAVAILABLE, name + " is disconnected from this collector; its observe endpoint "
                    + e + " is not relayed");
            return;
        }
        if (agentToken == null) {
            s.error(s.request(), ObserveProtocol.ERR_UNAVAILABLE, "this collector has no token for the agents' observe endpoints"
                    + " (start it with --agent-token-file)");
            return;
        }
        Socket socket;
        try {
            socket = dial(e, agentTls);
        } catch (IOException x) {
            s.error(s.request(), ObserveProtocol.ERR_UNAVAILABLE, "cannot reach the observe endpoint " + e + " of " + name + ": "
                    + x.getMessage() + (e.tls() ? " (the collector's --agent-trust-store must hold the agent's certificate or its CA,"
                    + " and the certificate must name " + e.host() + ")" : ""));
            return;
        }
        open.incrementAndGet();
        try (socket) {
            OutputStream toAgent = new BufferedOutputStream(socket.getOutputStream(), 16384);
            LiveFrameInput fromAgent = new LiveFrameInput(socket.getInputStream(), name + " at " + e);
            if (!opened(s, name, e, toAgent, fromAgent)) return;
            socket.setSoTimeout(0);
            Thread back = new Thread(() -> agentToObserver(s, name, fromAgent.frames()), "sonde-relay-" + agent.agentId());
            back.setDaemon(true);
            back.start();
            observerToAgent(s, toAgent);
            socket.close(); // the observer left: end the agent's session, which ends the other direction
            try {
                back.join(AGENT_TIMEOUT_MS);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        } finally {
            open.decrementAndGet();
        }
    }

    /** The agent the RELAY names: its id, or a unique prefix of it; null after an ERROR to the observer. */
    private AgentInfo find(Session s) {
        String target = s.target().trim().toLowerCase(java.util.Locale.ROOT);
        List<AgentInfo> found = new ArrayList<>();
        for (AgentInfo a : directory.list()) {
            String id = a.agentId().toString();
            if (id.equals(target)) return a;
            if (!target.isEmpty() && id.startsWith(target)) found.add(a);
        }
        if (found.size() == 1) return found.get(0);
        if (found.isEmpty()) {
            s.error(s.request(), ObserveProtocol.ERR_UNKNOWN_PATH, "no agent '" + s.target() + "' at this collector (its agents are"
                    + " listed under agents/: sonde ls COLLECTOR/agents)");
        } else {
            s.error(s.request(), ObserveProtocol.ERR_BAD_ARGUMENT, "agent '" + s.target() + "' is ambiguous: " + found.size()
                    + " agents' ids start with it");
        }
        return null;
    }

    private static Socket dial(ObserveEndpoint e, SSLContext agentTls) throws IOException {
        Socket plain = new Socket();
        try {
            plain.connect(new InetSocketAddress(e.host(), e.port()), AGENT_TIMEOUT_MS);
            plain.setTcpNoDelay(true);
            // the agent's certificate must name the host it announced, and be trusted by --agent-trust-store (else the JVM's default)
            Socket s = e.tls() ? TlsSockets.handshake(agentTls != null ? agentTls : SSLContext.getDefault(), plain, e.host(), e.port(),
                    AGENT_TIMEOUT_MS) : plain;
            s.setSoTimeout(AGENT_TIMEOUT_MS);
            return s;
        } catch (IOException | NoSuchAlgorithmException | RuntimeException x) {
            plain.close();
            throw x instanceof IOException io ? io : new IOException(x.toString(), x);
        }
    }

    /**
     * Opens the agent side: stream header and HELLO (the observer's request id and version, the
     * collector's agent token), then passes the agent's OK on. False after an ERROR to the observer.
     */
    private boolean opened(Session s, String name, ObserveEndpoint e, OutputStream toAgent, LiveFrameInput fromAgent) {
        LiveFrameWriter w = new LiveFrameWriter(relayId, ProcessHandle.current().pid(), "");
        try {
            toAgent.write(LiveFrameWriter.streamHeader());
            ObserveCodec.hello(w, s.request(), s.version(), agentToken);
            w.writeTo(toAgent);
            toAgent.flush();
            if (!fromAgent.readStreamHeader()) throw new IOException("closed before its stream header");
            FrameInput frames = fromAgent.frames();
            if (!frames.nextFrame()) throw new IOException("closed without answering HELLO");
            PayloadReader r = new PayloadReader(frames.frameBytes(), frames.header().headerLength(), frames.frameLength());
            int type = r.type();
            int request = r.u32();
            if (type == ObserveProtocol.OK && request == s.request()) {
                s.forward(frames.frameBytes(), frames.frameLength());
                return true;
            }
            String why = type == ObserveProtocol.ERROR ? "error " + r.u16() + ", " + r.str() : ObserveProtocol.messageName(type);
            s.error(s.request(), ObserveProtocol.ERR_UNAVAILABLE, name + " refused the collector's session at " + e + " (" + why
                    + "); the collector's --agent-token-file must hold the agent's observe token");
        } catch (IOException | RuntimeException x) {
            s.error(s.request(), ObserveProtocol.ERR_UNAVAILABLE, "observe endpoint " + e + " of " + name + ": " + x.getMessage());
        }
        return false;
    }

    /** Until the observer closes: its frames to the agent, unchanged. */
    private static void observerToAgent(Session s, OutputStream toAgent) {
        FrameInput in = s.observerFrames();
        try {
            while (in.nextFrame()) {
                toAgent.write(in.frameBytes(), 0, in.frameLength());
                toAgent.flush();
            }
        } catch (IOException | RuntimeException gone) {
            // the observer left, sent a broken frame, or the agent's socket closed: the session ends either way
        }
    }

    /** Until the agent closes: its frames to the observer, unchanged; then tells the observer why the session ended. */
    private static void agentToObserver(Session s, String name, FrameInput in) {
        String reason;
        try {
            while (in.nextFrame()) s.forward(in.frameBytes(), in.frameLength());
            reason = name + " closed its observe session (the agent ended or closed its endpoint)";
        } catch (IOException | RuntimeException x) {
            reason = name + "'s observe session was lost: " + x.getMessage();
        }
        s.error(0, ObserveProtocol.ERR_UNAVAILABLE, reason);
        s.close();
    }
}
