package io.sonde.format.observe;

/** A live message that cannot be decoded: names the message and the payload offset of the problem. */
public final class MalformedMessageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String message) {
        super(message);
    }
}
