package io.sonde.core.pipeline.packing;

/**
 * The refined hill-climbing rule of "adaptive message packing" (section 3) on a degree index, in a
 * paired form: the rule compares the throughput at the current index with the throughput at a
 * neighbouring index (its <em>partner</em>: the index it came from), both measured in the same
 * interval ({@link PairedComparison}), and then moves by exactly one step, or stays.
 *
 * <ul>
 *   <li>The index came up from its partner ({@code index > partner}, the paper's
 *       {@code pack_i >= pack_(i-1)}): the index is better, go up; worse, go down (back to the
 *       partner).</li>
 *   <li>The index came down from its partner: better, keep going down (the index is above the
 *       peak); worse, go up again (it is below the peak), so a transient drop cannot walk the
 *       index down to its minimum.</li>
 *   <li>Equal (no difference the measurement can tell from its noise): stay (the paper's steady
 *       state); the next comparison is with the neighbour on the other side, so both neighbours of
 *       a plateau are checked in turn.</li>
 * </ul>
 * In short: keep the direction while throughput improves, reverse it when throughput drops. After
 * a move the partner is the index just left. The index never leaves {@code [minIndex, maxIndex]}:
 * a step beyond a bound is clipped (the index stays and is compared with the same neighbour again).
 * The paper starts at pack = 1 and its first step goes up; here the first comparison is of the
 * start index with the one above it, and the index goes up unless the start is better.
 *
 * <p>The paper compares consecutive intervals, each at one degree; on a loaded machine the load
 * changes between two intervals by more than neighbouring degrees differ, and the degree random
 * walks. Comparing interleaved measurements of both degrees removes that drift from the
 * comparison; {@link PairedComparison} says "equal" unless the difference stands out of the noise
 * measured in the same interval (no dead band to tune).
 *
 * <p>Not thread-safe: one writer thread owns it.
 */
public final class HillClimbing {
    private final int minIndex;
    private final int maxIndex;
    private int index;
    private int partner;

    /**
     * @param minIndex lowest index (inclusive)
     * @param maxIndex highest index (inclusive), at least {@code minIndex}
     * @param startIndex first index, within the bounds
     */
    public HillClimbing(int minIndex, int maxIndex, int startIndex) {
        if (minIndex > maxIndex) {
            throw new IllegalArgumentException("degree index bounds reversed: min " + minIndex + " > max " + maxIndex);
        }
        if (startIndex < minIndex || startIndex > maxIndex) {
            throw new IllegalArgumentException("start index " + startIndex + " outside [" + minIndex + ", " + maxIndex + "]");
        }
        this.minIndex = minIndex;
        this.maxIndex = maxIndex;
        this.index = startIndex;
        this.partner = startIndex < maxIndex ? startIndex + 1 : Math.max(minIndex, startIndex - 1);
    }

    /** The current degree index: where the writer runs. */
    public int index() {
        return index;
    }

    /** The neighbouring index the current one is compared with (equal to {@link #index()} only if the bounds allow one index). */
    public int partner() {
        return partner;
    }

    public int minIndex() {
        return minIndex;
    }

    public int maxIndex() {
        return maxIndex;
    }

    /**
     * Takes the outcome of comparing {@link #index()} with {@link #partner()} and moves to the next index.
     *
     * @param verdict positive: the index gave more throughput than its partner; negative: less; 0: equal
     * @return the new index
     */
    public int update(int verdict) {
        if (partner == index) return index; // a single index: nothing to choose
        boolean cameUp = index > partner;
        if (verdict == 0) {
            int mirrored = 2 * index - partner;
            if (mirrored >= minIndex && mirrored <= maxIndex) partner = mirrored;
            return index;
        }
        int step = (verdict > 0) == cameUp ? +1 : -1; // better: keep the direction; worse: reverse it
        int next = Math.max(minIndex, Math.min(maxIndex, index + step));
        if (next != index) {
            partner = index;
            index = next;
        }
        return index;
    }
}
