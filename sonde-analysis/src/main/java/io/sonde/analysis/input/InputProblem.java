package io.sonde.analysis.input;

/**
 * Input that could not be read: where (file or peer, byte offset) and what. Everything before
 * the offset was analysed; the results are then partial.
 *
 * @param source file path (or other source name)
 * @param offset absolute byte offset in the source, or -1 when not known
 * @param message the problem in words
 */
public record InputProblem(String source, long offset, String message) {
    /** {@code source: offset N: message}, the form users see. */
    @Override
    public String toString() {
        return source + (offset >= 0 ? ": offset " + offset : "") + ": " + message;
    }
}
