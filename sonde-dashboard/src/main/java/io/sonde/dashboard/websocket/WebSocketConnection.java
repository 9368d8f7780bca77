package io.sonde.dashboard.websocket;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The server end of one open WebSocket: sends text messages (from any thread) and, on its reader
 * thread ({@link #run}), answers pings, joins fragmented messages, checks UTF-8 and completes the
 * closing handshake (RFC 6455 sections 5.4, 5.5, 7).
 */
public final class WebSocketConnection {
    /** The largest message accepted from a page (the pages send small JSON requests). */
    static final int MAX_MESSAGE_BYTES = 1 << 20;

    private final Socket socket;
    private final String path;
    private final OutputStream out;
    private final AtomicBoolean closeSent = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Object attachment;

    WebSocketConnection(Socket socket, String path) throws IOException {
        this.socket = socket;
        this.path = path;
        this.out = socket.getOutputStream();
    }

    /** The request target the page opened (path and query). */
    public String path() {
        return path;
    }

    /** Whatever the handler keeps with this connection (its session). */
    public Object attachment() {
        return attachment;
    }

    public void attach(Object o) {
        attachment = o;
    }

    /** True until a close frame was sent or the stream broke. */
    public boolean isOpen() {
        return !closeSent.get() && !socket.isClosed();
    }

    /**
     * Sends one text message in one frame. Writes are serialised, so any thread may send.
     *
     * @throws IOException if the connection is closed or the write fails
     */
    public void sendText(String message) throws IOException {
        if (!isOpen()) throw new IOException("WebSocket closed");
        write(new WebSocketFrame(true, WebSocketFrame.TEXT, message.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Starts the closing handshake with {@code code} and {@code reason} (cut to fit a control
     * frame); the socket closes when the page answers, or at once when it cannot be written.
     */
    public void close(int code, String reason) {
        if (!closeSent.compareAndSet(false, true)) return;
        try {
            write(closeFrame(code, reason));
            socket.setSoTimeout(2000); // the page has two seconds to answer the close
        } catch (IOException e) {
            closeSocket();
        }
    }

    private synchronized void write(WebSocketFrame f) throws IOException {
        out.write(f.encode(null));
        out.flush();
    }

    private static WebSocketFrame closeFrame(int code, String reason) {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(text.length, WebSocketFrame.MAX_CONTROL_PAYLOAD - 2);
        byte[] p = new byte[2 + n];
        p[0] = (byte) (code >>> 8);
        p[1] = (byte) code;
        System.arraycopy(text, 0, p, 2, n);
        return new WebSocketFrame(true, WebSocketFrame.CLOSE, p);
    }

    /** Reads frames until the connection ends, then tells the handler once. */
    void run(WebSocketHandler handler) {
        int code = 1006;
        String reason = "connection lost";
        InputStream in;
        try {
            in = socket.getInputStream();
        } catch (IOException e) {
            closeSocket();
            if (ended.compareAndSet(false, true)) handler.onClose(this, code, e.toString());
            return;
        }
        try {
            ByteArrayOutputStream message = null; // a fragmented text message being joined
            while (true) {
                WebSocketFrame f = WebSocketFrame.read(in, true, MAX_MESSAGE_BYTES);
                if (f == null) break;
                switch (f.opcode()) {
                    case WebSocketFrame.PING -> {
                        if (!closeSent.get()) write(new WebSocketFrame(true, WebSocketFrame.PONG, f.payload()));
                    }
                    case WebSocketFrame.PONG -> { /* unsolicited pongs are allowed and ignored */ }
                    case WebSocketFrame.CLOSE -> {
                        code = f.payload().length >= 2 ? ((f.payload()[0] & 0xFF) << 8) | (f.payload()[1] & 0xFF) : 1005;
                        reason = f.payload().length > 2 ? utf8(f.payload(), 2) : "";
                        if (closeSent.compareAndSet(false, true)) write(closeFrame(code == 1005 ? 1000 : code, ""));
                        return;
                    }
                    case WebSocketFrame.TEXT, WebSocketFrame.BINARY -> {
                        if (message != null) throw new WebSocketException(1002, "new message before the last fragment of the previous one");
                        if (f.opcode() == WebSocketFrame.BINARY) throw new WebSocketException(1003, "binary messages are not accepted");
                        if (f.fin()) {
                            handler.onText(this, utf8(f.payload(), 0));
                        } else {
                            message = new ByteArrayOutputStream();
                            message.write(f.payload());
                        }
                    }
                    default -> { // CONTINUATION
                        if (message == null) throw new WebSocketException(1002, "continuation frame without a message to continue");
                        if (message.size() + f.payload().length > MAX_MESSAGE_BYTES) {
                            throw new WebSocketException(1009, "message longer than " + MAX_MESSAGE_BYTES + " bytes");
                        }
                        message.write(f.payload());
                        if (f.fin()) {
                            handler.onText(this, utf8(message.toByteArray(), 0));
                            message = null;
                        }
                    }
                }
            }
        } catch (WebSocketException e) {
            code = e.closeCode();
            reason = e.getMessage();
            close(code, reason);
            drain(in);
        } catch (IOException | RuntimeException e) {
            reason = e.toString();
        } finally {
            closeSocket();
            if (ended.compareAndSet(false, true)) handler.onClose(this, code, reason);
        }
    }

    /**
     * After a protocol error: reads what the page still sends (its close answer) until it closes or
     * the close timeout passes, so closing the socket with unread data does not reset the
     * connection before the page has read the close frame.
     */
    private static void drain(InputStream in) {
        try {
            byte[] skip = new byte[4096];
            while (in.read(skip) >= 0) {
                // discard
            }
        } catch (IOException e) {
            // timed out or reset: done either way
        }
    }

    private static String utf8(byte[] b, int from) throws WebSocketException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, from, b.length - from)).toString();
        } catch (CharacterCodingException e) {
            throw new WebSocketException(1007, "text is not valid UTF-8");
        }
    }

    void closeSocket() {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }
}
