package io.sonde.bench;

import java.util.Arrays;

/** Entry point of {@code ./sonde bench}: {@code micro} runs the JMH hot-path benchmarks. */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("overhead")) {
            io.sonde.bench.overhead.OverheadBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        System.err.println("sonde bench: not built yet");
        System.exit(2);
    }
}
