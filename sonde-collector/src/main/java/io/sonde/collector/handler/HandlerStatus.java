package io.sonde.collector.handler;

/**
 * Counters of one handler.
 *
 * @param name the handler's name
 * @param lossless true for a handler run on the connection threads (never drops)
 * @param state {@code running}, {@code failed to open: …} or {@code closed}
 * @param handled frames handed to {@code handle} (including those it threw on)
 * @param dropped frames not delivered because the handler's queue was full (0 for a lossless handler),
 *     or because it failed to open
 * @param droppedBytes bytes of those frames
 * @param queued frames waiting in its queue now
 * @param errors calls that threw
 * @param lastError the last exception, in words, or null
 */
public record HandlerStatus(String name, boolean lossless, String state, long handled, long dropped, long droppedBytes, int queued,
        long errors, String lastError) {

    /** One line: "database: running, 1200 frames handled, 3 dropped (queue full, 786432 bytes), 0 queued, no errors". */
    public String describe() {
        return name + (lossless ? " (lossless)" : "") + ": " + state + ", " + handled + " frames handled, " + dropped + " dropped"
                + (dropped == 0 ? "" : " (" + droppedBytes + " bytes)") + ", " + queued + " queued, "
                + (errors == 0 ? "no errors" : errors + " errors, last: " + lastError);
    }
}
