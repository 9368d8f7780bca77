package io.sonde.core.live.observe;

import io.sonde.api.live.ObserveService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

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
        return fromKeyStore(keyStore, passwordFile, what, (ks, password) -> {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            return ctx;
        });
    }

    /** What is made of a loaded key store and its password. */
    private interface FromKeyStore<T> {
        T make(KeyStore keyStore, char[] password) throws GeneralSecurityException;
    }

    /**
     * Loads {@code keyStore} with the password of {@code passwordFile} (the token file's rules) and
     * makes {@code f} of it; errors name {@code what}, the file and the problem. The password is wiped after.
     */
    private static <T> T fromKeyStore(Path keyStore, Path passwordFile, String what, FromKeyStore<T> f) {
        char[] password;
        try {
            password = ObserveService.tokenFromFile(passwordFile).toCharArray();
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new IllegalArgumentException(what + " TLS key store password: " + e.getMessage(), e);
        }
        try {
            // KeyStore.getInstance(File) throws IllegalArgumentException, naming no store, for a missing file
            if (!java.nio.file.Files.isRegularFile(keyStore)) throw new IOException("no such file");
            return f.make(KeyStore.getInstance(keyStore.toFile(), password), password);
        } catch (IOException e) {
            throw new UncheckedIOException(what + " TLS key store " + keyStore + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(what + " TLS key store " + keyStore + ": " + e.getMessage(), e);
        } finally {
            java.util.Arrays.fill(password, '\0');
        }
    }

    /**
     * A client context that trusts exactly the certificates of the key pairs in {@code keyStore}
     * (password in the owner-only {@code passwordFile}) and nothing else: for a process that connects
     * to its own TLS server (the collector's dashboard to the collector's observe endpoint). The host
     * name is not checked: the server must prove it holds one of these very keys, which is stronger
     * than a certificate that names a host.
     */
    public static SSLContext pinnedTo(Path keyStore, Path passwordFile, String what) {
        return fromKeyStore(keyStore, passwordFile, what, (ks, password) -> {
            List<X509Certificate> own = new ArrayList<>();
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias) && ks.getCertificate(alias) instanceof X509Certificate c) own.add(c);
            }
            if (own.isEmpty()) throw new KeyStoreException("holds no key pair with a certificate");
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {new PinnedTrust(own)}, null);
            return ctx;
        });
    }

    /**
     * Trusts a server whose certificate is one of {@code pinned}, byte for byte, and valid now. An
     * {@link X509ExtendedTrustManager}: the JDK then leaves the whole decision here (a plain
     * X509TrustManager would be wrapped with a host name check).
     */
    private static final class PinnedTrust extends X509ExtendedTrustManager {
        private final List<X509Certificate> pinned;

        PinnedTrust(List<X509Certificate> pinned) {
            this.pinned = List.copyOf(pinned);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            if (chain == null || chain.length == 0) throw new CertificateException("the server sent no certificate");
            for (X509Certificate c : pinned) {
                if (c.equals(chain[0])) { // X509Certificate.equals compares the encoded forms
                    chain[0].checkValidity();
                    return;
                }
            }
            throw new CertificateException("the server's certificate (" + chain[0].getSubjectX500Principal() + ") is not this process's own");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a client-side trust manager: clients are not checked here");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
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
