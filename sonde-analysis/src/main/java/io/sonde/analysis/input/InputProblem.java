package io.sonde.analysis.input;

/**
 * Input that could not be read (an error: the results are partial), or a notice about the input
 * (a stream that ended without its trailer: its writer did not close cleanly, so records may be
 * missing after the last whole frame). For errors everything before the offset was analysed.
 *
 * @param source file path (or other source name)
 * @param offset absolute byte offset in the source, or -1 when not known
 * @param message the problem in words
 * @param error true for an error that stopped the reading of this source
 */
public record InputProblem(String source, long offset, String message, boolean error) {
    /** An error at the given place. */
    public static InputProblem error(String source, long offset, String message) {
        return new InputProblem(source, offset, message, true);
    }

    /** A notice at the given place. */
    public static InputProblem notice(String source, long offset, String message) {
        return new InputProblem(source, offset, message, false);
    }

    /** {@code source: offset N: message}, the form users see. */
    @Override
    public String toString() {
        return source + (offset >= 0 ? ": offset " + offset : "") + ": " + message;
    }
}
