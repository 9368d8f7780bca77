package io.sonde.format.stream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.util.Set;

/**
 * The shared secret of a collector or an observe endpoint, read from a file that only its owner
 * may read or write. One check for every place that takes {@code --token-file} or
 * {@code tcp.token.file}.
 */
public final class TokenFile {
    private TokenFile() {}

    /**
     * Reads a token from {@code file} (trimmed), refusing a file that its group or others may read
     * or write on a POSIX file system, and an empty one.
     *
     * @throws IllegalArgumentException naming the file and the problem
     * @throws UncheckedIOException if the file cannot be read
     */
    public static String read(Path file) {
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

    /** Compares two tokens in time independent of where they differ. */
    public static boolean matches(String expected, String given) {
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    }
}
