package io.sonde.core.live;

import io.sonde.api.live.LiveTree;
import io.sonde.api.live.ObserveOptions;
import io.sonde.api.live.ObserveService;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.live.observe.TlsContexts;
import io.sonde.core.pipeline.Pipeline;
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
 * {@code observe}, {@code observe.port}, {@code observe.token.file}, {@code observe.bind},
 * {@code observe.tls.key.store}, {@code observe.tls.password.file}; {@code sonde demo --live}):
 * the token comes from a file readable only by its owner, or is generated and written to a new
 * owner-only file, whose place the caller prints.
 */
public final class ObserveStartup {
    private ObserveStartup() {}

    /** A started endpoint and the file its token is in ({@code generated}: written by this start). */
    public record Started(ObserveService service, Path tokenFile, boolean generated, String host, boolean tls) {
        /** {@code HOST:PORT} as observers give it (a wildcard bind as 127.0.0.1, an IPv6 literal in brackets). */
        public String endpoint() {
            String h = host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0") ? "127.0.0.1" : host;
            return (h.contains(":") ? "[" + h + "]" : h) + ":" + service.port();
        }

        /** One line for the user: where the endpoint listens and where its token is. */
        public String describe() {
            return "observe endpoint on " + host + ":" + service.port() + (tls ? " (TLS)" : "") + ", token in "
                    + tokenFile.toAbsolutePath() + (generated ? " (generated)" : "");
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
        return start(tree, port, tokenFile, generatedDir, "127.0.0.1", "", "");
    }

    /**
     * Starts the endpoint of {@code tree} as the configuration says ({@code observe.port},
     * {@code observe.token.file}, {@code observe.bind}, {@code observe.tls.key.store},
     * {@code observe.tls.password.file}; the generated token's place from {@code writer} and
     * {@code file.dir}), and announces it to the pipeline's writer (with {@code observe.advertised.host}
     * and whether it is TLS), so a collector can relay observers to it.
     *
     * @throws IllegalArgumentException naming the key and the problem: a non-loopback bind without TLS, a key store
     *     without its password file, an unreadable key store, a token file others may read
     * @throws UncheckedIOException a token file that cannot be read or written, a port in use
     */
    public static Started start(LiveTree tree, SondeConfig c, Pipeline announceTo) {
        Started s = start(tree, c.getInt(ConfigKey.OBSERVE_PORT), c.get(ConfigKey.OBSERVE_TOKEN_FILE),
                generatedTokenDir(c.get(ConfigKey.WRITER), c.get(ConfigKey.FILE_DIR)), c.get(ConfigKey.OBSERVE_BIND),
                c.get(ConfigKey.OBSERVE_TLS_KEY_STORE), c.get(ConfigKey.OBSERVE_TLS_PASSWORD_FILE));
        announceTo.announceObserve(s.service().port(), c.get(ConfigKey.OBSERVE_ADVERTISED_HOST), s.tls());
        return s;
    }

    /**
     * As {@link #start(LiveTree, int, String, Path)}, bound to {@code bind} and, with {@code keyStore}
     * non-empty, serving TLS with its key pair (password in {@code passwordFile}, owner-only). Errors
     * name the configuration key they come from.
     */
    static Started start(LiveTree tree, int port, String tokenFile, Path generatedDir, String bind, String keyStore,
            String passwordFile) {
        String host = bind.trim();
        boolean tls = !keyStore.isBlank();
        if (tls && passwordFile.isBlank()) {
            throw new IllegalArgumentException(ConfigKey.OBSERVE_TLS_KEY_STORE.key() + " needs "
                    + ConfigKey.OBSERVE_TLS_PASSWORD_FILE.key() + " (a file holding the key store's password, chmod 600)");
        }
        if (!tls && !passwordFile.isBlank()) {
            throw new IllegalArgumentException(ConfigKey.OBSERVE_TLS_PASSWORD_FILE.key() + " is set without "
                    + ConfigKey.OBSERVE_TLS_KEY_STORE.key() + " (the key store of the endpoint's key pair)");
        }
        try {
            TlsContexts.bindAddress("observe", host, tls); // refused here, before a token file is written
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ConfigKey.OBSERVE_BIND.key() + "=" + host + ": " + e.getMessage()
                    + (tls ? "" : " (set " + ConfigKey.OBSERVE_TLS_KEY_STORE.key() + " and " + ConfigKey.OBSERVE_TLS_PASSWORD_FILE.key() + ")"), e);
        }
        Path store = tls ? Path.of(keyStore.trim()) : null;
        Path password = tls ? Path.of(passwordFile.trim()) : null;
        if (tls) {
            // loaded once here so that a bad store or password fails naming the keys, before a token file is written
            try {
                TlsContexts.server(store, password, "observe");
            } catch (IllegalArgumentException | UncheckedIOException e) {
                throw new IllegalArgumentException(ConfigKey.OBSERVE_TLS_KEY_STORE.key() + "=" + store + ", "
                        + ConfigKey.OBSERVE_TLS_PASSWORD_FILE.key() + "=" + password + ": " + e.getMessage(), e);
            }
        }
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
        ObserveOptions options = ObserveOptions.of(port, token).bind(host);
        if (tls) options = options.tls(store, password);
        ObserveService service;
        try {
            service = tree.observe(options);
        } catch (RuntimeException e) {
            if (generated) deleteQuietly(file);
            throw e;
        }
        return new Started(service, file, generated, host, tls);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // deleted at exit anyway (deleteOnExit)
        }
    }
}
