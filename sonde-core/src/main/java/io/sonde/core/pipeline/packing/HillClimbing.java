package io.sonde.core.pipeline.packing;

/**
 * The refined hill-climbing rule of "adaptive message packing" (section 3) on a degree index:
 * after each throughput measurement the index moves by exactly one step, or stays.
 *
 * <ul>
 *   <li>The last step went up or nowhere ({@code index_i >= index_(i-1)}): throughput rose, go up;
 *       throughput fell, go down.</li>
 *   <li>The last step went down: throughput rose, keep going down (the index is above the peak);
 *       throughput fell, go up again (it is below the peak), so a transient drop cannot walk the
 *       index down to its minimum.</li>
 *   <li>Throughput equal: stay (steady state).</li>
 * </ul>
 * In short: keep the direction while throughput improves, reverse it when throughput drops. There
 * is deliberately no dead band: like the paper, the index oscillates over the peak's neighbours
 * instead of needing a threshold to tune. The index never leaves {@code [minIndex, maxIndex]}; a
 * step beyond a bound is clipped (the index stays, and the next step counts as "up or nowhere").
 * The first measurement has nothing to compare with and counts as a rise, so the climb starts
 * upward from the start index (the paper starts at pack = 1).
 *
 * <p>Not thread-safe: one writer thread owns it.
 */
public final class HillClimbing {
    private final int minIndex;
    private final int maxIndex;
    private int index;
    private int previousIndex;
    private double previousThroughput = Double.NaN;

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
        this.previousIndex = startIndex;
    }

    /** The current degree index. */
    public int index() {
        return index;
    }

    public int minIndex() {
        return minIndex;
    }

    public int maxIndex() {
        return maxIndex;
    }

    /**
     * Takes the throughput measured while running at {@link #index()} and moves to the next index.
     *
     * @param throughput any non-negative rate (records/s); only comparisons matter
     * @return the new index
     */
    public int update(double throughput) {
        if (!(throughput >= 0)) throw new IllegalArgumentException("throughput must be >= 0, got " + throughput);
        int step;
        if (Double.isNaN(previousThroughput) || throughput > previousThroughput) {
            step = index >= previousIndex ? +1 : -1; // improved: keep the direction
        } else if (throughput < previousThroughput) {
            step = index >= previousIndex ? -1 : +1; // worse: reverse it
        } else {
            step = 0;
        }
        previousThroughput = throughput;
        previousIndex = index;
        index = Math.max(minIndex, Math.min(maxIndex, index + step));
        return index;
    }
}
