package io.sonde.format;

/**
 * Why data records were dropped: the one list used by the agent's counters, the TRAILER frame it
 * writes at close and every report that reads a trailer. The {@link #code()} is the u8 written in
 * the trailer's drop entries (format section 4.2); codes are never reused.
 */
public enum DropReason {
    /** The producer's ring was full under the {@code drop} policy. */
    BUFFER_FULL(1, "buffer-full"),
    /** Produced while the monitor was closing, or left in a ring after the final drain. */
    CLOSED(2, "closed"),
    /** The thread got no ring because {@code buffers.max} rings existed already. */
    NO_BUFFER(3, "no-buffer"),
    /** The writer's I/O failed or gave up; the frame holding the records was not written. */
    WRITER_FAILED(4, "writer-failed"),
    /**
     * The TCP writer's buffer of frames not yet acknowledged by the collector was full under the
     * {@code drop} policy (or the {@code block} policy's wait ran out); the frame was not sent.
     */
    RESEND_BUFFER_FULL(5, "resend-buffer-full");

    private final int code;
    private final String label;
    private static final DropReason[] BY_CODE = new DropReason[6];

    static {
        for (DropReason r : values()) BY_CODE[r.code] = r;
    }

    DropReason(int code, String label) {
        this.code = code;
        this.label = label;
    }

    /** The reason code in the trailer (1, 2, ...). */
    public int code() {
        return code;
    }

    /** Lower-case name for reports, e.g. {@code buffer-full}. */
    public String label() {
        return label;
    }

    /** The reason with this trailer code, or null for a code this version does not know. */
    public static DropReason ofCode(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** Largest code of this version: trailer drop arrays indexed by code have {@code maxCode() + 1} slots. */
    public static int maxCode() {
        return BY_CODE.length - 1;
    }

    /** The label of a code, or {@code reason-<code>} for an unknown one. */
    public static String labelOf(int code) {
        DropReason r = ofCode(code);
        return r != null ? r.label : "reason-" + code;
    }
}
