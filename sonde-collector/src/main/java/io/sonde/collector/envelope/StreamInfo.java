package io.sonde.collector.envelope;

import java.util.UUID;

/**
 * One connection's stream as the collector sees it: the node header data every frame of it
 * carries (agent id, host, process id, taken from its first frame), the peer, when it connected,
 * and — once the archive handler opened it — its segment file. Shared by the envelopes of the
 * stream; handlers may use it as a map key (identity).
 */
public final class StreamInfo {
    private final long connection;
    private final UUID agentId;
    private final String host;
    private final long pid;
    private final String peer;
    private final long connectedMillis;
    private final byte[] streamHeader;
    private final StreamDecoder decoder;
    private volatile String segment;

    /**
     * @param connection collector-wide number of this connection (1, 2, …)
     * @param streamHeader the 12 stream-header bytes as received
     * @param decoding true if some handler decodes envelopes (then definition frames are tracked)
     */
    public StreamInfo(long connection, UUID agentId, String host, long pid, String peer, long connectedMillis, byte[] streamHeader,
            boolean decoding) {
        this.connection = connection;
        this.agentId = agentId;
        this.host = host;
        this.pid = pid;
        this.peer = peer;
        this.connectedMillis = connectedMillis;
        this.streamHeader = streamHeader.clone();
        this.decoder = decoding ? new StreamDecoder(peer) : null;
    }

    public long connection() {
        return connection;
    }

    public UUID agentId() {
        return agentId;
    }

    public String host() {
        return host;
    }

    public long pid() {
        return pid;
    }

    /** ip:port of the sending agent. */
    public String peer() {
        return peer;
    }

    /** Wall-clock time the first frame arrived, ms since the epoch. */
    public long connectedMillis() {
        return connectedMillis;
    }

    /** The stream header bytes as received (a copy). */
    public byte[] streamHeader() {
        return streamHeader.clone();
    }

    /** The archive's segment file of this stream, or null (no archive, or not opened yet). */
    public String segment() {
        return segment;
    }

    /** Set by the archive handler when it opened the stream's segment. */
    public void segment(String file) {
        this.segment = file;
    }

    StreamDecoder decoder() {
        return decoder;
    }

    @Override
    public String toString() {
        return "connection " + connection + " of agent " + agentId + " (" + peer + ")";
    }
}
