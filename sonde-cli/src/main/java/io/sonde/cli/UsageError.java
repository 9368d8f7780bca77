package io.sonde.cli;

/**
 * A command line that parsed but asks for something invalid: an option value out of range, options
 * that do not go together. Like picocli's own parameter errors it exits with 2 (usage), where a
 * {@link UserError} that is a failed run exits with 1.
 */
public final class UsageError extends UserError {
    private static final long serialVersionUID = 1L;

    public UsageError(String message) {
        super(message);
    }
}
