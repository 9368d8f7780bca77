package io.sonde.sim.random;

/**
 * A stream of pseudo-random numbers for one purpose inside one replication (xoshiro256**,
 * seeded through SplitMix64).
 *
 * <p>The generator is implemented here rather than taken from the JDK so that a given seed gives
 * the same numbers on every JDK version, which is what makes simulation output reproducible byte
 * for byte. A stream is not thread-safe; each replication owns its streams.
 *
 * <p>Streams are derived with {@link #derive(long, int, String)} from (experiment seed,
 * replication index, stream name): two replications never share numbers, and adding a stream for
 * a new purpose does not shift the numbers any other stream produces (common random numbers).
 */
public final class RandomStream {
    private long s0;
    private long s1;
    private long s2;
    private long s3;

    /** Creates a stream from a 64-bit seed (expanded to 256 bits of state by SplitMix64). */
    public RandomStream(long seed) {
        long x = seed;
        x += 0x9E3779B97F4A7C15L;
        s0 = mix64(x);
        x += 0x9E3779B97F4A7C15L;
        s1 = mix64(x);
        x += 0x9E3779B97F4A7C15L;
        s2 = mix64(x);
        x += 0x9E3779B97F4A7C15L;
        s3 = mix64(x);
        if ((s0 | s1 | s2 | s3) == 0) {
            s0 = 1; // the all-zero state is the one state xoshiro cannot leave
        }
    }

    /**
     * The stream for {@code name} in replication {@code replication} of the experiment with seed
     * {@code seed}.
     */
    public static RandomStream derive(long seed, int replication, String name) {
        return new RandomStream(deriveSeed(seed, replication, name));
    }

    /** The 64-bit seed {@link #derive} uses; exposed so that other code can derive sub-seeds. */
    public static long deriveSeed(long seed, int replication, String name) {
        long h = 0xCBF29CE484222325L; // FNV-1a over the UTF-16 units of the name
        for (int i = 0; i < name.length(); i++) {
            h ^= name.charAt(i);
            h *= 0x100000001B3L;
        }
        long x = mix64(seed ^ 0x5DEECE66DL);
        x = mix64(x ^ (replication * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L));
        return mix64(x ^ mix64(h));
    }

    /** SplitMix64's finaliser: a bijective, well-mixing 64-bit hash. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The next 64 uniformly distributed bits. */
    public long nextLong() {
        final long result = Long.rotateLeft(s1 * 5, 7) * 9;
        final long t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = Long.rotateLeft(s3, 45);
        return result;
    }

    /** A uniform double in [0, 1) with 53 random bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** A uniform double in (0, 1]; safe to pass to {@link Math#log}. */
    public double nextDoubleNonZero() {
        return ((nextLong() >>> 11) + 1) * 0x1.0p-53;
    }

    /** A uniform int in [0, bound), without modulo bias. */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, got " + bound);
        }
        // Lemire's multiply-shift with rejection.
        long m = (nextLong() >>> 32) * bound;
        long low = m & 0xFFFFFFFFL;
        if (low < bound) {
            long threshold = (0x100000000L - bound) % bound;
            while (low < threshold) {
                m = (nextLong() >>> 32) * bound;
                low = m & 0xFFFFFFFFL;
            }
        }
        return (int) (m >>> 32);
    }

    /** An exponentially distributed value with the given mean. */
    public double nextExponential(double mean) {
        return -mean * Math.log(nextDoubleNonZero());
    }
}
