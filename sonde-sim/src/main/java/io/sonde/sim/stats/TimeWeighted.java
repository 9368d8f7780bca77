package io.sonde.sim.stats;

/**
 * The time average of a piecewise-constant quantity (queue length, busy CPUs, utilisation):
 * the integral of the value over time divided by the time observed. Update it whenever the
 * quantity changes with {@link #set} or {@link #add}. Allocation-free.
 */
public final class TimeWeighted implements Measure {
    private final String name;
    private final Clock clock;
    private final double scale;
    private double value;
    private double lastTime;
    private double start;
    private double area;

    /** A time average of a quantity that starts at 0 now. */
    public TimeWeighted(String name, Clock clock) {
        this(name, clock, 1);
    }

    /**
     * A time average whose {@link #value()} is divided by {@code divisor} (for instance the number
     * of CPUs, to turn busy CPUs into utilisation).
     */
    public TimeWeighted(String name, Clock clock, double divisor) {
        if (!(divisor > 0)) {
            throw new IllegalArgumentException("divisor must be > 0, got " + divisor);
        }
        this.name = name;
        this.clock = clock;
        this.scale = 1 / divisor;
        this.lastTime = clock.now();
        this.start = lastTime;
    }

    /** The quantity now has value {@code v}. */
    public void set(double v) {
        double t = clock.now();
        area += value * (t - lastTime);
        lastTime = t;
        value = v;
    }

    /** The quantity changes by {@code delta} now. */
    public void add(double delta) {
        set(value + delta);
    }

    /** The current (not averaged) value of the quantity. */
    public double current() {
        return value;
    }

    @Override
    public String name() {
        return name;
    }

    /** The time average since creation or the last reset, up to now; NaN if no time has passed. */
    @Override
    public double value() {
        double t = clock.now();
        double span = t - start;
        if (!(span > 0)) {
            return Double.NaN;
        }
        return (area + value * (t - lastTime)) / span * scale;
    }

    /** Starts averaging afresh from now, keeping the current value of the quantity. */
    @Override
    public void reset() {
        double t = clock.now();
        area = 0;
        lastTime = t;
        start = t;
    }
}
