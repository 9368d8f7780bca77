package io.sonde.core.live.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.observe.LiveFrameInput;
import io.sonde.format.observe.LiveFrameWriter;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.PayloadReader;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.UUID;

/** A hand-made connection to an endpoint on 127.0.0.1, to send what the client library never would. */
final class RawConnection implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final LiveFrameWriter w = new LiveFrameWriter(new UUID(0, 0), 1, "");
    final LiveFrameInput in;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        out = socket.getOutputStream();
        in = new LiveFrameInput(socket.getInputStream(), "test");
        out.write(LiveFrameWriter.streamHeader());
        assertThat(in.readStreamHeader()).isTrue();
    }

    void send() throws IOException {
        w.writeTo(out);
        out.flush();
    }

    PayloadReader answer() throws IOException {
        PayloadReader r = in.next();
        assertThat(r).as("an answer").isNotNull();
        return r;
    }

    String error(int code) throws IOException {
        PayloadReader r = answer();
        assertThat(r.type()).isEqualTo(ObserveProtocol.ERROR);
        r.u32();
        assertThat(r.u16()).isEqualTo(code);
        return r.str();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
