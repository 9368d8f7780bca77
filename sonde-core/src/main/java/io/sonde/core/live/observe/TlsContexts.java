package io.sonde.core.live.observe;

import io.sonde.api.live.ObserveService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** The endpoint's TLS context from a key store file and a password file. */
final class TlsContexts {
    private TlsContexts() {}

    /**
     * A server context holding the key pair of {@code keyStore} (PKCS12 or JKS, detected). The
     * password file obeys the token file's rules (readable by its owner only, not empty).
     */
    static SSLContext server(Path keyStore, Path passwordFile) {
        char[] password;
        try {
            password = ObserveService.tokenFromFile(passwordFile).toCharArray();
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new IllegalArgumentException("observe TLS key store password: " + e.getMessage(), e);
        }
        try {
            KeyStore ks = KeyStore.getInstance(keyStore.toFile(), password);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            return ctx;
        } catch (IOException e) {
            throw new UncheckedIOException("observe TLS key store " + keyStore + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("observe TLS key store " + keyStore + ": " + e.getMessage(), e);
        } finally {
            java.util.Arrays.fill(password, '\0');
        }
    }
}
