package io.sonde.api.live;

import java.nio.file.Path;

/** A running observe endpoint: a TCP server giving each authenticated connection its own session. */
public interface ObserveService extends AutoCloseable {
    /** The bound port (the one chosen when 0 was asked). */
    int port();

    /** Connections open now (authenticated). */
    int connections();

    /** Stops accepting and closes every connection and its session. */
    @Override
    void close();

    /**
     * Reads a token from {@code file} (trimmed), refusing a file that its group or others may read
     * or write on a POSIX file system.
     */
    static String tokenFromFile(Path file) {
        return io.sonde.format.stream.TokenFile.read(file); // the one check shared with the collector's token
    }
}
