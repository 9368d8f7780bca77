package io.sonde.api;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run in its own JVM by {@link RealJvmExitTest}: threads produce into the file writer while main
 * calls System.exit. Prints how many data records the threads had completed before the exit.
 */
public final class ExitingApp {
    public static void main(String[] args) throws Exception {
        // block-forever: the test checks that what the producers counted before the exit is in the
        // file; with the default bounded wait a writer descheduled for 100 ms on a loaded machine
        // would make them drop (counted, but not what this test is about)
        Monitor m = Sonde.start(Map.of("writer", "file", "file.dir", args[0], "buffer.bytes", "4096",
                "file.segment.bytes", "65536", "policy", "block-forever"));
        MethodProbe outer = m.methodProbe("app.Work.outer", "()V");
        MethodProbe inner = m.methodProbe("app.Work.inner", "(I)I");
        AtomicLong[] counts = new AtomicLong[4];
        for (int t = 0; t < counts.length; t++) {
            AtomicLong c = counts[t] = new AtomicLong();
            Thread w = new Thread(() -> {
                long sink = 0;
                for (;;) {
                    boolean e = outer.enter();
                    for (int k = 0; k < 3; k++) {
                        boolean f = inner.enter();
                        sink += k;
                        inner.exit(f);
                        if (f) c.addAndGet(2);
                    }
                    outer.exit(e);
                    if (e) c.addAndGet(2);
                    if (sink == -1) System.out.println(sink);
                }
            }, "producer-" + t);
            w.setDaemon(false);
            w.start();
        }
        Thread.sleep(Long.parseLong(args[1]));
        long total = 0;
        for (AtomicLong c : counts) total += c.get();
        System.out.println("COUNTED " + total);
        System.out.flush();
        System.exit(0);
    }
}
