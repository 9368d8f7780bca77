package io.sonde.bench;

/** Entry point of {@code ./sonde bench}: {@code micro} runs the JMH hot-path benchmarks. */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) {
        System.err.println("sonde bench: not built yet");
        System.exit(2);
    }
}
