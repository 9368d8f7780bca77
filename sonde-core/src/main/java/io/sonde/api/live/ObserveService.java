package io.sonde.api.live;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

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
        try {
            try {
                Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
                for (PosixFilePermission bad : Set.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                        PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE)) {
                    if (p.contains(bad)) {
                        throw new IllegalArgumentException("token file " + file + ": " + bad
                                + " is set; the token must be readable only by its owner (chmod 600)");
                    }
                }
            } catch (UnsupportedOperationException notPosix) {
                // no POSIX permissions to check on this file system
            }
            String token = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (token.isEmpty()) throw new IllegalArgumentException("token file " + file + " is empty");
            return token;
        } catch (IOException e) {
            throw new UncheckedIOException("token file " + file + ": " + e.getMessage(), e);
        }
    }
}
