package io.sonde.agent.it;

import io.sonde.collector.archive.Archive;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.StreamSummary;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * A receiver ({@code sonde receive} without the CLI, whose jar is built after these tests) in a JVM
 * of its own, so a test can kill it: {@code ReceiverJvmMain <archive dir> <port, 0 = any>} binds to
 * 127.0.0.1, prints {@code port N}, one line per ended connection ({@code closed ...} /
 * {@code failed ...}) and serves until killed (at most 120 s).
 */
public final class ReceiverJvmMain {
    private ReceiverJvmMain() {}

    public static void main(String[] args) throws Exception {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[1]));
        Receiver r = Receiver.start(bind, new Archive(Path.of(args[0])), new ReceiverListener() {
            @Override
            public void closed(String peer, StreamSummary stream) {
                System.out.println("closed " + stream.describe());
                System.out.flush();
            }

            @Override
            public void failed(String peer, long offset, String problem, StreamSummary stream) {
                System.out.println("failed at " + offset + ": " + problem + " (" + stream.describe() + ")");
                System.out.flush();
            }
        });
        System.out.println("port " + r.port());
        System.out.flush();
        Thread.sleep(120_000); // the test kills us long before; the bound keeps a leaked JVM from living on
        r.abort();
    }
}
