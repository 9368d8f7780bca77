package io.sonde.format.read;

import java.io.IOException;

/**
 * Input that does not follow the Sonde format. The message names the source (a file path or a
 * TCP peer), the absolute byte offset in that source where the problem was found, and the
 * problem, e.g. {@code "/logs/a.sonde: offset 4096: CRC mismatch in frame (stored 0x1a2b3c4d,
 * computed 0x99887766)"}. Everything before that offset has been delivered to the caller.
 */
public final class FormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final long offset;
    private final FormatProblem problem;
    private final String detail;

    public FormatException(String source, long offset, FormatProblem problem, String detail) {
        super(source + ": offset " + offset + ": " + detail);
        this.source = source;
        this.offset = offset;
        this.problem = problem;
        this.detail = detail;
    }

    /** The file path or peer address the bad bytes came from. */
    public String source() {
        return source;
    }

    /** Absolute byte offset in {@link #source()} where the problem was detected. */
    public long offset() {
        return offset;
    }

    /** The kind of problem. */
    public FormatProblem problem() {
        return problem;
    }

    /** The problem in words, without source and offset. */
    public String detail() {
        return detail;
    }
}
