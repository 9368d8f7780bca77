package io.sonde.core.live.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed key pairs made by the JDK's keytool for TLS tests (observe endpoint, collector, CLI),
 * their trust stores, and owner-only secret files. Every store has the password {@link #PASSWORD}.
 */
public final class TestKeyPairs {
    /** The password of every key and trust store made here. */
    public static final String PASSWORD = "test-store-pass";

    private TestKeyPairs() {}

    /**
     * A PKCS12 key store {@code dir/file} with one EC key pair (alias {@code observe}) whose
     * self-signed certificate has subject {@code dname} and the subject alternative names {@code san}
     * (keytool's form, e.g. {@code SAN=ip:127.0.0.1,dns:localhost}).
     */
    public static Path keyPair(Path dir, String file, String dname, String san) throws Exception {
        Path ks = dir.resolve(file);
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "observe", "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", dname, "-ext", san, "-validity", "2", "-keystore", ks.toString(), "-storetype",
                "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(p.exitValue()).as("keytool: %s", out).isZero();
        return ks;
    }

    /** A PKCS12 trust store {@code dir/file} holding the certificate of {@code keyStore}'s key pair. */
    public static Path trustStoreOf(Path keyStore, Path dir, String file) throws Exception {
        KeyStore ks = KeyStore.getInstance(keyStore.toFile(), PASSWORD.toCharArray());
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("observe", ks.getCertificate("observe"));
        Path out = dir.resolve(file);
        try (OutputStream o = Files.newOutputStream(out)) {
            trust.store(o, PASSWORD.toCharArray());
        }
        return out;
    }

    /** {@code dir/name} holding {@code content}, readable and writable by its owner only (as token and password files must be). */
    public static Path secretFile(Path dir, String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }
}
