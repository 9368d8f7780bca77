package io.sonde.format.read;

/**
 * Where and why a {@link SondeReader} stopped: after the trailer (complete), at a clean frame
 * boundary without a trailer (incomplete: the writer did not close cleanly, or the rest is in a
 * segment not given), or at a format error.
 */
public final class ReadEnd {
    /** The three ways a stream can end. */
    public enum Kind {
        /** The TRAILER frame was read: the stream is whole. */
        COMPLETE,
        /** The data ended at a frame boundary without a TRAILER. */
        INCOMPLETE,
        /** A format error (or an I/O error) stopped the reader. */
        ERROR
    }

    private final Kind kind;
    private final String source;
    private final long offset;
    private final String message;
    private final java.io.IOException error;

    ReadEnd(Kind kind, String source, long offset, String message, java.io.IOException error) {
        this.kind = kind;
        this.source = source;
        this.offset = offset;
        this.message = message;
        this.error = error;
    }

    public Kind kind() {
        return kind;
    }

    /** The file (or peer) in which the reader stopped. */
    public String source() {
        return source;
    }

    /** Absolute byte offset in {@link #source()} where the reader stopped. */
    public long offset() {
        return offset;
    }

    /** Why, in words, e.g. "stream ended without trailer at offset 318". */
    public String message() {
        return message;
    }

    /** The error for {@link Kind#ERROR} (a {@link FormatException} unless the I/O itself failed), else null. */
    public java.io.IOException error() {
        return error;
    }

    public boolean complete() {
        return kind == Kind.COMPLETE;
    }

    @Override
    public String toString() {
        return kind == Kind.ERROR ? message : source + ": " + message;
    }
}
