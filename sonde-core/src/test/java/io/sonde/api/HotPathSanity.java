package io.sonde.api;

import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.probe.Probes;
import java.util.Map;

/**
 * A JMH-free sanity check of the hot path (not a test, prints figures only; the real numbers come
 * from the JMH benchmarks). Run:
 * {@code java -cp sonde-core/target/classes:sonde-format/target/classes:sonde-core/target/test-classes
 * io.sonde.api.HotPathSanity [discard|file]}.
 */
public final class HotPathSanity {
    static long sink;

    public static void main(String[] args) {
        String writer = args.length > 0 ? args[0] : "discard";
        try (Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", writer, "file.dir",
                System.getProperty("java.io.tmpdir") + "/sonde-sanity")))) {
            int on = m.methodProbe("sanity.On.run", "()V").id();
            MethodProbe offProbe = m.methodProbe("sanity.Off.run", "()V");
            offProbe.setEnabled(false);
            int off = offProbe.id();
            for (int round = 0; round < 5; round++) {
                int n = 20_000_000;
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    boolean e = Probes.enter(off);
                    sink += i;
                    Probes.exit(off, e);
                }
                long t1 = System.nanoTime();
                int k = 5_000_000;
                for (int i = 0; i < k; i++) {
                    boolean e = Probes.enter(on);
                    sink += i;
                    Probes.exit(on, e);
                }
                long t2 = System.nanoTime();
                for (int i = 0; i < k; i++) {
                    sink += System.nanoTime();
                    sink += System.nanoTime();
                }
                long t3 = System.nanoTime();
                System.out.printf("off %.2f ns/execution, enter+exit %.1f ns, two nanoTime() %.1f ns%n",
                        (t1 - t0) / (double) n, (t2 - t1) / (double) k, (t3 - t2) / (double) k);
            }
            System.out.println(m.counters());
        }
    }
}
