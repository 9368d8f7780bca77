package io.sonde.format.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reader fuzz of the normal test suite: {@link ReaderFuzz} for 1,500 inputs and then for about
 * three seconds more (at most 200,000 inputs) from a fixed seed, reproducible and changeable with {@code
 * -Dsonde.fuzz.seed=N} (and {@code -Dsonde.fuzz.millis=M} for a longer run). Every input is read
 * strictly to its end or rejected with an offset inside it, and in recovery mode to its end with
 * every problem at an offset inside it; nothing else is thrown; the run ends within a minute of its budget (no hang);
 * no input makes the reading thread allocate more than {@link ReaderFuzz#allocationBound}. The
 * long run (10 million inputs) is {@link ReaderFuzzMain}, see docs/reliability.md.
 */
class ReaderFuzzTest {
    /** Inputs read whatever the time; then more until the time budget or {@link #MAX_INPUTS}. */
    private static final long MIN_INPUTS = 1_500;
    private static final long MAX_INPUTS = 200_000;
    /** The whole run's allowance beyond the time budget: the fixed part takes about 1 s on a quiet machine, 6 s at load 25. */
    private static final long HANG_MILLIS = 60_000;

    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "reader-fuzz");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        worker.shutdownNow();
    }

    @Test
    void mutatedStreamsAreReadToTheirEndOrRejectedWithAnOffsetInBothModes() throws Exception {
        long seed = Long.getLong("sonde.fuzz.seed", 0x17_50DEL);
        long millis = Long.getLong("sonde.fuzz.millis", 3000);
        ReaderFuzz fuzz = new ReaderFuzz(seed);
        Future<Long> done = worker.submit(() -> {
            // a fixed number first, however loaded the machine (a time budget alone once gave only 804 inputs on CI)
            long n = fuzz.run(0, MIN_INPUTS, Long.MAX_VALUE);
            return n + fuzz.run(n, MAX_INPUTS - n, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
        });
        long inputs;
        try {
            inputs = done.get(millis + HANG_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("fuzz input " + fuzz.current + " of seed " + seed + " did not finish within " + HANG_MILLIS / 1000
                    + " s (a hang): " + ReaderFuzz.hex(fuzz.input(fuzz.current)));
        } catch (ExecutionException e) {
            throw (Error) e.getCause();
        }
        System.out.printf("reader fuzz, seed %d: %d inputs, %d read fully, %d rejected with an offset, %d problems reported in "
                + "recovery, largest allocation %d bytes (input of at most %d bytes)%n", seed, inputs, fuzz.readFully, fuzz.rejected,
                fuzz.problemsReported, fuzz.largestAllocation, fuzz.largestInput);
        assertThat(inputs).isBetween(MIN_INPUTS, MAX_INPUTS);
        // both outcomes occur in quantity, so the mutations reach past the envelope checks
        assertThat(fuzz.readFully).isGreaterThan(inputs / 20);
        assertThat(fuzz.rejected).isGreaterThan(inputs / 4);
    }
}
