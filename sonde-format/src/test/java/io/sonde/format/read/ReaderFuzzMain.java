package io.sonde.format.read;

import java.util.Locale;

/**
 * The long reader fuzz run (see docs/reliability.md, "Fuzzing"):
 *
 * <pre>
 * mvn -B -ntp -q -pl sonde-format -am test-compile
 * nice java -cp sonde-format/target/test-classes:sonde-format/target/classes \
 *     io.sonde.format.read.ReaderFuzzMain --inputs 10000000 --seed 1
 * </pre>
 *
 * Checks inputs 0 .. N-1 of the seed with {@link ReaderFuzz}, prints progress every million
 * inputs and a summary; a hang (one input over 10 s) or a crash (any property violated) is printed
 * with seed, index and the input's bytes, and the exit code is 1.
 */
public final class ReaderFuzzMain {
    private static final long HANG_NANOS = 10_000_000_000L;

    private ReaderFuzzMain() {}

    public static void main(String[] args) throws Exception {
        long inputs = 10_000_000;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--inputs":
                    inputs = Long.parseLong(args[++i]);
                    break;
                case "--seed":
                    seed = Long.parseLong(args[++i]);
                    break;
                default:
                    System.err.println("usage: ReaderFuzzMain [--inputs N] [--seed S]");
                    System.exit(2);
            }
        }
        long theSeed = seed;
        ReaderFuzz fuzz = new ReaderFuzz(seed);
        Thread watchdog = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                long at = fuzz.current;
                if (at >= 0 && System.nanoTime() - fuzz.currentStartNanos > HANG_NANOS && at == fuzz.current) {
                    System.out.println("HANG: input " + at + " of seed " + theSeed + " runs for more than 10 s: " + ReaderFuzz.hex(fuzz.input(at)));
                    System.exit(1);
                }
            }
        }, "fuzz-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        long start = System.nanoTime();
        long step = 1_000_000;
        long done = 0;
        try {
            while (done < inputs) {
                done += fuzz.run(done, Math.min(step, inputs - done), Long.MAX_VALUE);
                System.out.printf(Locale.ROOT, "%d inputs, %.0f s%n", done, (System.nanoTime() - start) / 1e9);
            }
        } catch (AssertionError e) {
            System.out.println("CRASH: " + e.getMessage());
            if (e.getCause() != null) {
                e.getCause().printStackTrace(System.out);
            }
            System.exit(1);
        }
        System.out.printf(Locale.ROOT, "reader fuzz: seed %d, %d inputs in %.0f s: read fully %d, rejected with an offset %d, crashes 0, "
                + "hangs 0; %d problems reported in recovery mode; largest allocation per input %d bytes (bound %d + %d per input byte), "
                + "largest input %d bytes%n", seed, done, (System.nanoTime() - start) / 1e9, fuzz.readFully, fuzz.rejected, fuzz.problemsReported,
                fuzz.largestAllocation, ReaderFuzz.ALLOCATION_BASE, ReaderFuzz.ALLOCATION_PER_BYTE, fuzz.largestInput);
    }
}
