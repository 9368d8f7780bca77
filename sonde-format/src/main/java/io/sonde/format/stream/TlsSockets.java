package io.sonde.format.stream;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * The client side of TLS, shared by every Sonde connection that can use it (the observer client,
 * the agent's TCP writer, the collector's relay to agents): a context trusting a trust store, and
 * the handshake over a connected socket with the server's host name verified.
 */
public final class TlsSockets {
    private TlsSockets() {}

    /**
     * A TLS context that trusts the certificates of {@code trustStore} (PKCS12 or JKS, detected;
     * {@code password} may be null for a store without integrity check).
     */
    public static SSLContext trusting(Path trustStore, char[] password) throws IOException {
        // KeyStore.getInstance(File) throws IllegalArgumentException, naming no store, for a missing file
        if (!java.nio.file.Files.isRegularFile(trustStore)) throw new IOException("trust store " + trustStore + ": no such file");
        try {
            KeyStore ks = KeyStore.getInstance(trustStore.toFile(), password);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("trust store " + trustStore + ": " + e.getMessage(), e);
        }
    }

    /**
     * Layers TLS over the connected socket {@code plain} and completes the handshake within
     * {@code timeoutMs}, checking that the server's certificate names {@code host} (a DNS name or IP
     * address in its subject alternative names). Closes the socket and throws, saying so, if the
     * handshake fails; the returned socket has no read timeout.
     */
    public static SSLSocket handshake(SSLContext tls, Socket plain, String host, int port, int timeoutMs) throws IOException {
        SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true);
        SSLParameters p = ssl.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host we asked for
        ssl.setSSLParameters(p);
        ssl.setSoTimeout(timeoutMs);
        try {
            ssl.startHandshake();
        } catch (IOException e) {
            ssl.close();
            throw new IOException("TLS handshake with " + host + ":" + port + " failed: " + e.getMessage(), e);
        }
        ssl.setSoTimeout(0);
        return ssl;
    }
}
