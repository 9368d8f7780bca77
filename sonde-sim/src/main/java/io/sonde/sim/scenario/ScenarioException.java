package io.sonde.sim.scenario;

/** A problem in a scenario file; the message names the file, line and column. */
public final class ScenarioException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a complete message (file:line:column: problem). */
    public ScenarioException(String message) {
        super(message);
    }
}
