package io.sonde.core.pipeline.packing;

/**
 * Decides whether one packing degree costs less per record than another, from {@link #PAIRS}
 * paired measurements, and says "equal" when the difference does not stand out of the noise.
 *
 * <p>Each pair is two adjacent slices of time, one at each degree, so what changes slowly (the
 * machine's other load, the source's record size) hits both alike and cancels in the pair's
 * difference. The difference is taken on a log scale, {@code ln(cost at partner / cost at index)},
 * so it is a relative difference whatever the record size. The verdict is a paired Student t test
 * at the 5 % level (two-sided): with {@link #PAIRS} = 5 the mean difference must exceed
 * {@link #T_CRITICAL} = 2.776 standard errors, the standard error being measured from the spread of
 * the same 5 differences. The threshold therefore follows the noise actually present in this
 * interval: large on a loaded machine, small on a quiet one; there is no dead band to tune.
 *
 * <p>Allocation-free; not thread-safe (the writer thread owns it).
 */
public final class PairedComparison {
    /** Pairs per verdict. */
    public static final int PAIRS = 5;
    /** Student's t, 4 degrees of freedom, 97.5 % quantile (two-sided 5 % test). */
    public static final double T_CRITICAL = 2.776;

    private final double[] differences = new double[PAIRS];
    private int pairs;

    /**
     * Adds one pair: the cost per record (any unit, positive) at the index and at its partner,
     * measured next to each other in time. A pair with a cost that is not positive (no record in
     * its slice) is ignored.
     *
     * @return true when {@link #PAIRS} pairs are in and {@link #verdict()} may be taken
     */
    public boolean add(double indexCost, double partnerCost) {
        if (!(indexCost > 0) || !(partnerCost > 0) || Double.isInfinite(indexCost) || Double.isInfinite(partnerCost)) {
            return pairs == PAIRS;
        }
        if (pairs < PAIRS) differences[pairs++] = Math.log(partnerCost / indexCost);
        return pairs == PAIRS;
    }

    /** True when {@link #PAIRS} pairs are in. */
    public boolean complete() {
        return pairs == PAIRS;
    }

    /**
     * The verdict of the complete set, which is then cleared: +1 the index costs less per record
     * (more throughput) than its partner, -1 more, 0 no difference at the 5 % level.
     *
     * @throws IllegalStateException if fewer than {@link #PAIRS} pairs are in
     */
    public int verdict() {
        if (pairs < PAIRS) throw new IllegalStateException("a verdict needs " + PAIRS + " pairs, " + pairs + " are in");
        double sum = 0;
        for (int i = 0; i < PAIRS; i++) sum += differences[i];
        double mean = sum / PAIRS;
        double squares = 0;
        for (int i = 0; i < PAIRS; i++) squares += (differences[i] - mean) * (differences[i] - mean);
        double standardError = Math.sqrt(squares / (PAIRS - 1) / PAIRS);
        pairs = 0;
        if (mean == 0 || Math.abs(mean) <= T_CRITICAL * standardError) return 0;
        return mean > 0 ? +1 : -1;
    }
}
