package io.sonde.kafka;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * What a publisher sent to Kafka: frames and bytes Kafka acknowledged, frames and bytes it refused
 * (any error from the producer, at once or in the send's callback), per reason, and, for a
 * publisher whose senders re-send (the edge collector's handler), frames that failed without
 * being lost. The first {@value #REPORTED} refusals and failures are reported one line each; the
 * rest only counted. Thread-safe (callbacks run on the producer's I/O thread).
 */
public final class PublishCounters {
    /** How many refusals are reported one line each. */
    public static final int REPORTED = 10;

    private final String who;
    private final Consumer<String> notices;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong publishedBytes = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong refusedBytes = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final Map<String, Long> reasons = new TreeMap<>();

    /**
     * @param who names the publisher in reports, e.g. {@code kafka handler (topic sonde)}
     * @param notices where refusals are reported, one line each
     */
    public PublishCounters(String who, Consumer<String> notices) {
        this.who = who;
        this.notices = notices;
    }

    /** Kafka acknowledged a frame of {@code bytes} bytes. */
    public void published(int bytes) {
        published.incrementAndGet();
        publishedBytes.addAndGet(bytes);
    }

    /** Kafka refused a frame (or the producer could not take it): the frame is lost, counted here. */
    public void refused(long sequence, int bytes, Exception e) {
        long n = refused.incrementAndGet();
        refusedBytes.addAndGet(bytes);
        String reason = e.getClass().getSimpleName();
        synchronized (reasons) {
            reasons.merge(reason, 1L, Long::sum);
        }
        report(n, "Kafka refused frame " + sequence + " (" + bytes + " bytes): " + reason + ": " + e.getMessage(), "refusals");
    }

    /** A send failed and the frame is sent again (by the agent after a reconnect, or by the writer itself): not lost, not counted as refused. */
    public void failed(long sequence, int bytes, Exception e) {
        long n = failed.incrementAndGet();
        report(n, "Kafka did not acknowledge frame " + sequence + " (" + bytes + " bytes), to be sent again: "
                + e.getClass().getSimpleName() + ": " + e.getMessage(), "failures");
    }

    private void report(long n, String line, String what) {
        if (n <= REPORTED) {
            notices.accept(who + ": " + line + (n == REPORTED ? " (further " + what + " only counted)" : ""));
        }
    }

    /** The publisher's name in reports. */
    public String who() {
        return who;
    }

    public long published() {
        return published.get();
    }

    public long publishedBytes() {
        return publishedBytes.get();
    }

    public long refused() {
        return refused.get();
    }

    public long refusedBytes() {
        return refusedBytes.get();
    }

    /** Sends that failed with the frame left to its sender to re-send (see {@link #failed}). */
    public long failed() {
        return failed.get();
    }

    /** Refused frames per reason (the exception's simple class name). */
    public Map<String, Long> reasons() {
        synchronized (reasons) {
            return Map.copyOf(reasons);
        }
    }

    /** One line: published and refused frames and bytes, with the reasons. */
    public String summary() {
        return who + ": published " + published() + " frames (" + publishedBytes() + " bytes), refused " + refused() + " frames ("
                + refusedBytes() + " bytes)" + (refused() == 0 ? "" : " " + reasons()) + (failed() == 0 ? "" : ", " + failed()
                + " sends failed (sent again)");
    }
}
