package io.sonde.lab.load;

import io.sonde.lab.server.Wire;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/** A client's connection to a lab server on 127.0.0.1 (see {@link Wire} for the protocol). */
final class LabConnection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    LabConnection(int port, int readTimeoutMillis) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(readTimeoutMillis);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 4096));
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64));
    }

    /** Sends one request (callers that share the connection between threads serialise this). */
    void send(long id, int kind, long demandNanos) throws IOException {
        out.writeLong(id);
        out.writeInt(kind);
        out.writeLong(demandNanos);
        out.flush();
    }

    /** Reads the next reply's request id (blocks up to the read timeout). */
    long receive() throws IOException {
        return in.readLong();
    }

    /** Whether {@link #close} was called. */
    boolean isClosed() {
        return socket.isClosed();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
