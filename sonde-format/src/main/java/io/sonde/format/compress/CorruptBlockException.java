package io.sonde.format.compress;

/**
 * A compressed block or COMPRESSED frame that cannot be decoded. {@link #position()} is where
 * decoding failed: an offset in the block for {@link Lz4Block}, in the frame for {@link FrameExpander}.
 */
public final class CorruptBlockException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int position;
    private final String detail;

    public CorruptBlockException(int position, String detail) {
        super(detail + " (at byte " + position + ")");
        this.position = position;
        this.detail = detail;
    }

    /** Offset where decoding failed. */
    public int position() {
        return position;
    }

    /** What is wrong, without the position. */
    public String detail() {
        return detail;
    }
}
