package io.sonde.cli;

/** A failure caused by the user's input or environment: printed as one line, exit code 1. */
public class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
