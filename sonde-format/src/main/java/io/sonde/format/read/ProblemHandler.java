package io.sonde.format.read;

/**
 * Receives the problems of a damaged stream that a reader in recovery mode read past (see
 * {@link SondeReader#recover(ProblemHandler)}), in stream order, each at the moment it is met:
 * before the first record after the problem is delivered. Each problem carries source, offset,
 * kind and detail; {@link FormatProblem#breaksContinuity()} tells whether records may be missing
 * at that point.
 */
@FunctionalInterface
public interface ProblemHandler {
    /** Called once per problem; the reader goes on when it returns. */
    void problem(FormatException problem);
}
