package io.sonde.collector.receive;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;

/** Client sockets to a receiver on loopback, named as the receiver names its peers. */
final class Peers {
    private Peers() {}

    static Socket connect(Receiver receiver) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), receiver.port());
        s.setTcpNoDelay(true);
        return s;
    }

    /** "127.0.0.1:port" of the client side, as in the receiver's events. */
    static String name(Socket s) {
        return "127.0.0.1:" + s.getLocalPort();
    }
}
