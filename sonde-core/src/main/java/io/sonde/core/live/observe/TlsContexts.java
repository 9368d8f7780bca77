package io.sonde.core.live.observe;

import io.sonde.api.live.ObserveService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A server's TLS context from a key store file and a password file: the observe endpoint's, and the
 * collector's agent data port's (one piece of code for both).
 */
public final class TlsContexts {
    private TlsContexts() {}

    /**
     * A server context holding the key pair of {@code keyStore} (PKCS12 or JKS, detected). The
     * password file obeys the token file's rules (readable by its owner only, not empty).
     */
    public static SSLContext server(Path keyStore, Path passwordFile) {
        return server(keyStore, passwordFile, "observe");
    }

    /**
     * As {@link #server(Path, Path)}; {@code what} names the server in error messages (e.g.
     * {@code "observe"}, {@code "collector"}).
     */
    public static SSLContext server(Path keyStore, Path passwordFile, String what) {
        char[] password;
        try {
            password = ObserveService.tokenFromFile(passwordFile).toCharArray();
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new IllegalArgumentException(what + " TLS key store password: " + e.getMessage(), e);
        }
        try {
            KeyStore ks = KeyStore.getInstance(keyStore.toFile(), password);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            return ctx;
        } catch (IOException e) {
            throw new UncheckedIOException(what + " TLS key store " + keyStore + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(what + " TLS key store " + keyStore + ": " + e.getMessage(), e);
        } finally {
            java.util.Arrays.fill(password, '\0');
        }
    }
}
