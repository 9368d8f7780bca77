package io.sonde.core.live.observe;

import io.sonde.api.live.ObserveService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
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

    /**
     * The address a server named {@code what} binds for {@code given} (a host name or address),
     * refusing, with a message naming the problem, an unknown host and a non-loopback address without
     * TLS: the token would cross the network in clear text. The observe endpoint and the collector's
     * agent data port apply this one rule.
     */
    public static InetAddress bindAddress(String what, String given, boolean tls) {
        InetAddress a;
        try {
            a = InetAddress.getByName(given);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(what + " bind address '" + given + "': unknown host", e);
        }
        requireTls(what, given, a, tls);
        return a;
    }

    /** Refuses (IllegalArgumentException) a non-loopback {@code address} without TLS; see {@link #bindAddress}. */
    public static void requireTls(String what, String given, InetAddress address, boolean tls) {
        if (!address.isLoopbackAddress() && !tls) {
            throw new IllegalArgumentException(what + " bind address '" + given + "' (" + address.getHostAddress()
                    + ") is not a loopback address: a non-loopback " + what + " needs TLS (a key store and its password file),"
                    + " or the token would cross the network in clear text");
        }
    }
}
