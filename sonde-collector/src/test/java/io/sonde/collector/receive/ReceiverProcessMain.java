package io.sonde.collector.receive;

import io.sonde.collector.archive.Archive;
import java.nio.file.Path;

/** A receiver in its own JVM, for the kill test: prints "port N", then serves until killed. */
public final class ReceiverProcessMain {
    private ReceiverProcessMain() {}

    public static void main(String[] args) throws Exception {
        Receiver r = Receiver.start(0, new Archive(Path.of(args[0])), new ReceiverListener() {
            @Override
            public void failed(String peer, long offset, String problem, StreamSummary stream) {
                System.out.println("failed " + peer + " offset " + offset + ": " + problem);
            }
        });
        System.out.println("port " + r.port());
        System.out.flush();
        Thread.sleep(120_000); // the test kills us long before; the bound keeps a leaked JVM from living on
        r.abort();
    }
}
