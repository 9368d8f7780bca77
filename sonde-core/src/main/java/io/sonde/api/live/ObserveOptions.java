package io.sonde.api.live;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how an observe endpoint listens ({@link LiveTree#observe(ObserveOptions)}): port, token,
 * bind address (127.0.0.1 unless set) and TLS. An address that is not a loopback address is
 * accepted only with TLS: the token would otherwise cross the network in clear text.
 *
 * <pre>{@code
 * live.observe(ObserveOptions.of(7712, token)
 *         .bind("0.0.0.0")
 *         .tls(Path.of("observe.p12"), Path.of("observe.p12.password")));
 * }</pre>
 */
public final class ObserveOptions {
    private final int port;
    private final String token;
    private final String bind;
    private final Path keyStore;
    private final Path keyStorePasswordFile;

    private ObserveOptions(int port, String token, String bind, Path keyStore, Path keyStorePasswordFile) {
        this.port = port;
        this.token = token;
        this.bind = bind;
        this.keyStore = keyStore;
        this.keyStorePasswordFile = keyStorePasswordFile;
    }

    /** An endpoint on 127.0.0.1:{@code port} ({@code 0}: any free port) without TLS. */
    public static ObserveOptions of(int port, String token) {
        return new ObserveOptions(port, token, null, null, null);
    }

    /** Binds to {@code address} (a host name or literal address) instead of 127.0.0.1. */
    public ObserveOptions bind(String address) {
        return new ObserveOptions(port, token, Objects.requireNonNull(address, "bind address"), keyStore, keyStorePasswordFile);
    }

    /**
     * Serves TLS with the key pair of {@code keyStore} (PKCS12 or JKS), whose password is in
     * {@code passwordFile} (readable only by its owner, as a token file).
     */
    public ObserveOptions tls(Path keyStore, Path passwordFile) {
        return new ObserveOptions(port, token, bind, Objects.requireNonNull(keyStore, "key store"),
                Objects.requireNonNull(passwordFile, "key store password file"));
    }

    public int port() {
        return port;
    }

    public String token() {
        return token;
    }

    /** The bind address, or null for 127.0.0.1. */
    public String bindAddress() {
        return bind;
    }

    /** The TLS key store, or null without TLS. */
    public Path keyStore() {
        return keyStore;
    }

    /** The file holding the key store's password, or null without TLS. */
    public Path keyStorePasswordFile() {
        return keyStorePasswordFile;
    }

    public boolean isTls() {
        return keyStore != null;
    }
}
