package io.sonde.cli.live;

import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Option;

/**
 * {@code --tls-trust-store FILE [--tls-trust-store-password-file F]}: how a command connects with
 * TLS to an observe endpoint (the agent's {@code observe.tls.key.store}, a collector's
 * {@code --tls-key-store}); shared by the observe commands and {@code sonde dashboard --observe}.
 */
public final class TrustStoreOptions {
    @Option(names = "--tls-trust-store", paramLabel = "FILE",
            description = "Connect with TLS, trusting the certificates in FILE (PKCS12 or JKS: the endpoint's certificate or its CA);"
                    + " the certificate must name HOST. For an endpoint with observe.tls.key.store, or a collector with --tls-key-store.")
    Path trustStore;

    @Option(names = "--tls-trust-store-password-file", paramLabel = "FILE",
            description = "File holding the trust store's password (owner-only, chmod 600); with --tls-trust-store.")
    Path passwordFile;

    /** True if either option was given. */
    public boolean given() {
        return trustStore != null || passwordFile != null;
    }

    /** The trust store given, or null. */
    public Path trustStore() {
        return trustStore;
    }

    /** The client TLS context, or null for plain TCP; a problem is a user error naming the option. */
    public SSLContext context() {
        return ObserveOptions.trust("--tls-trust-store", trustStore, passwordFile);
    }
}
