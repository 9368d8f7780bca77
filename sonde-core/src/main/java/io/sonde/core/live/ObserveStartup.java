package io.sonde.core.live;

import io.sonde.api.live.LiveTree;
import io.sonde.api.live.ObserveService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Starts an observe endpoint from settings (the agent's {@code observe=on}, the configuration keys
 * {@code observe}, {@code observe.port}, {@code observe.token.file}, {@code sonde demo --live}):
 * the token comes from a file readable only by its owner, or is generated and written to a new
 * owner-only file, whose place the caller prints.
 */
public final class ObserveStartup {
    private ObserveStartup() {}

    /** A started endpoint and the file its token is in ({@code generated}: written by this start). */
    public record Started(ObserveService service, Path tokenFile, boolean generated) {
        /** One line for the user: where the endpoint listens and where its token is. */
        public String describe() {
            return "observe endpoint on 127.0.0.1:" + service.port() + ", token in " + tokenFile.toAbsolutePath()
                    + (generated ? " (generated)" : "");
        }
    }

    /** A random token: 32 hex digits from a {@link SecureRandom} (128 bits). */
    public static String newToken() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * Writes {@code token} to {@code file}, replacing an old one, created with permissions 0600 on
     * a POSIX file system (given at creation: the token is never readable by others, not even
     * briefly). Creates missing parent directories.
     */
    public static void writeTokenFile(Path file, String token) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        }
        Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
    }

    /** Where a generated token goes: next to the log with the file writer ({@code file.dir}), else the temp directory. */
    public static Path generatedTokenDir(String writer, String fileDir) {
        return Path.of("file".equals(writer.trim()) ? fileDir.trim() : System.getProperty("java.io.tmpdir"));
    }

    /**
     * Starts the endpoint of {@code tree} on 127.0.0.1:{@code port}. With {@code tokenFile} non-empty
     * the token is read from it ({@link ObserveService#tokenFromFile}); else a new token goes to
     * {@code observe-<pid>.token} in {@code generatedDir}, deleted when the JVM exits.
     *
     * @throws IllegalArgumentException naming the problem: a token file others may read, an empty one
     * @throws UncheckedIOException a token file that cannot be read or written, a port in use
     */
    public static Started start(LiveTree tree, int port, String tokenFile, Path generatedDir) {
        Path file;
        String token;
        boolean generated = tokenFile == null || tokenFile.isBlank();
        if (generated) {
            file = generatedDir.resolve("observe-" + ProcessHandle.current().pid() + ".token");
            token = newToken();
            try {
                writeTokenFile(file, token);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the observe token file " + file.toAbsolutePath() + ": " + e, e);
            }
            file.toFile().deleteOnExit();
        } else {
            file = Path.of(tokenFile.trim());
            token = ObserveService.tokenFromFile(file);
        }
        return new Started(tree.observe(port, token), file, generated);
    }
}
