package io.sonde.core.writer;

import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.Quantities;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.stream.TlsSockets;
import io.sonde.format.stream.TokenFile;
import java.io.IOException;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import java.nio.file.Path;
import java.util.ServiceLoader;

/**
 * Creates the writer a configuration names ({@code writer} = discard | file | text | tcp, built in;
 * others, such as kafka, from a {@link WriterProvider} found with {@link ServiceLoader}).
 */
public final class Writers {
    private Writers() {}

    public static Writer create(SondeConfig c) {
        switch (c.get(ConfigKey.WRITER)) {
            case "discard":
                return new DiscardWriter();
            case "file":
                return new FileWriter(Path.of(c.get(ConfigKey.FILE_DIR)), c.getLong(ConfigKey.FILE_SEGMENT_BYTES),
                        c.get(ConfigKey.FILE_MODE), Quantities.bytes(c.get(ConfigKey.FILE_MAXSIZE)),
                        Quantities.millis(c.get(ConfigKey.FILE_MAXAGE)));
            case "text":
                return new TextWriter(c.get(ConfigKey.TEXT_OUT));
            case "tcp":
                if (c.get(ConfigKey.TCP_ACK).equals("false")) {
                    if (!c.get(ConfigKey.TCP_TOKEN_FILE).isEmpty()) {
                        throw new IllegalArgumentException("tcp.token.file needs tcp.ack=true: the 2.0 stream has no handshake to carry a token");
                    }
                    if (c.get(ConfigKey.TCP_TLS).equals("on")) {
                        throw new IllegalArgumentException("tcp.tls=on needs tcp.ack=true: TLS is built into the acknowledged writer only");
                    }
                    return new TcpWriter(c.get(ConfigKey.TCP_HOST), c.getInt(ConfigKey.TCP_PORT),
                            c.getInt(ConfigKey.TCP_CONNECT_TIMEOUT_MS));
                }
                String tokenFile = c.get(ConfigKey.TCP_TOKEN_FILE);
                return new AckedTcpWriter(c.get(ConfigKey.TCP_HOST), c.getInt(ConfigKey.TCP_PORT), c.getInt(ConfigKey.TCP_CONNECT_TIMEOUT_MS),
                        tokenFile.isEmpty() ? "" : TokenFile.read(Path.of(tokenFile)), c.getInt(ConfigKey.TCP_RESEND_MIB) << 20,
                        c.get(ConfigKey.POLICY).equals("drop"), tls(c));
            default:
                return plugIn(c);
        }
    }

    /** The TLS context of the tcp writer ({@code tcp.tls=on}), or null for plain TCP. */
    private static SSLContext tls(SondeConfig c) {
        if (!c.get(ConfigKey.TCP_TLS).equals("on")) return null;
        String store = c.get(ConfigKey.TCP_TLS_TRUST_STORE).trim();
        try {
            if (store.isEmpty()) return SSLContext.getDefault();
            String passwordFile = c.get(ConfigKey.TCP_TLS_TRUST_STORE_PASSWORD_FILE).trim();
            char[] password = passwordFile.isEmpty() ? null : TokenFile.read(Path.of(passwordFile)).toCharArray();
            return TlsSockets.trusting(Path.of(store), password);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("tcp.tls.trust.store " + store + ": " + e.getMessage(), e);
        }
    }

    private static Writer plugIn(SondeConfig c) {
        String name = c.get(ConfigKey.WRITER);
        for (WriterProvider p : ServiceLoader.load(WriterProvider.class, Writers.class.getClassLoader())) {
            if (p.name().equals(name)) {
                return p.create(c);
            }
        }
        throw new IllegalArgumentException("writer=" + name + " is a plug-in that is not on the class path"
                + (name.equals("kafka") ? ": add the sonde-kafka jar and its kafka-clients dependency" : ""));
    }
}
