package io.sonde.api.live;

import java.time.Duration;
import java.util.Objects;

/**
 * The quality of service of one subscription (MOOMS section 3.3): when its events are delivered,
 * and with which priority.
 *
 * <ul>
 *   <li>{@link #immediate()}: each event as soon as the dispatcher gets to it;
 *   <li>{@link #batch(int, Duration)}: {@code n} events per delivery, and a started batch is
 *       delivered when its oldest event is {@code flush} old, full or not;
 *   <li>{@link #periodic(Duration)}: every {@code period}, everything of the period in one delivery;
 *   <li>{@link #periodicLatest(Duration)}: every {@code period}, only the latest value per attribute
 *       (object events are kept all);
 *   <li>{@link #urgent()}: the subscription's deliveries overtake the regular ones of its session.
 * </ul>
 */
public final class Qos {
    /** How deliveries are formed. */
    public enum Mode {
        IMMEDIATE,
        BATCH,
        PERIODIC,
        PERIODIC_LATEST
    }

    private static final Qos IMMEDIATE = new Qos(Mode.IMMEDIATE, 1, 0L, false);

    private final Mode mode;
    private final int batchSize;
    private final long nanos;
    private final boolean urgent;

    private Qos(Mode mode, int batchSize, long nanos, boolean urgent) {
        this.mode = mode;
        this.batchSize = batchSize;
        this.nanos = nanos;
        this.urgent = urgent;
    }

    public static Qos immediate() {
        return IMMEDIATE;
    }

    /** Batches of {@code n >= 1} events; a batch waits at most {@code flush} (> 0) for its n-th event. */
    public static Qos batch(int n, Duration flush) {
        if (n < 1) throw new IllegalArgumentException("batch size: " + n + " is below 1");
        return new Qos(Mode.BATCH, n, positive("flush timeout", flush), false);
    }

    /** All events of each period in one delivery ({@code period} > 0). */
    public static Qos periodic(Duration period) {
        return new Qos(Mode.PERIODIC, Integer.MAX_VALUE, positive("period", period), false);
    }

    /** The latest value per attribute of each period in one delivery ({@code period} > 0). */
    public static Qos periodicLatest(Duration period) {
        return new Qos(Mode.PERIODIC_LATEST, Integer.MAX_VALUE, positive("period", period), false);
    }

    /** The same QoS with urgent priority. */
    public Qos urgent() {
        return new Qos(mode, batchSize, nanos, true);
    }

    public Mode mode() {
        return mode;
    }

    /** Events per batch (1 for immediate, unbounded for periodic). */
    public int batchSize() {
        return batchSize;
    }

    /** The batch flush timeout or the period in nanoseconds (0 for immediate). */
    public long intervalNanos() {
        return nanos;
    }

    public boolean isUrgent() {
        return urgent;
    }

    private static long positive(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException(what + ": " + d + " is not positive");
        return d.toNanos();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Qos && ((Qos) o).mode == mode && ((Qos) o).batchSize == batchSize && ((Qos) o).nanos == nanos
                && ((Qos) o).urgent == urgent;
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, batchSize, nanos, urgent);
    }

    @Override
    public String toString() {
        String s;
        switch (mode) {
            case BATCH: s = "batch " + batchSize + " flush " + Duration.ofNanos(nanos); break;
            case PERIODIC: s = "periodic " + Duration.ofNanos(nanos); break;
            case PERIODIC_LATEST: s = "periodic latest " + Duration.ofNanos(nanos); break;
            default: s = "immediate";
        }
        return urgent ? s + " urgent" : s;
    }
}
