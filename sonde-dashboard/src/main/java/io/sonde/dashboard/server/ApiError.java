package io.sonde.dashboard.server;

/** A request the API refuses: the HTTP status and a message naming the parameter and the problem. */
public final class ApiError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public ApiError(int status, String message) {
        super(message);
        this.status = status;
    }

    public static ApiError badRequest(String message) {
        return new ApiError(400, message);
    }

    public static ApiError notFound(String message) {
        return new ApiError(404, message);
    }

    public int status() {
        return status;
    }
}
