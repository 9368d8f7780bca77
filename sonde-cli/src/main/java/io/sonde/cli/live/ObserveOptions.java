package io.sonde.cli.live;

import io.sonde.api.live.ObserveService;
import io.sonde.cli.UsageError;
import io.sonde.cli.UserError;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.stream.TlsSockets;
import io.sonde.format.stream.TokenFile;
import io.sonde.observer.ObserveException;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options every command on an observe endpoint shares ({@code --token-file}), the connection
 * with its errors turned into one-line messages, and the errors of requests.
 */
public final class ObserveOptions {
    @Option(names = "--token-file", required = true, paramLabel = "FILE",
            description = "file holding the endpoint's token (must be readable only by its owner: chmod 600)")
    Path tokenFile;

    @Option(names = "--agent", paramLabel = "ID",
            description = "reach this agent's own live objects through the collector at HOST:PORT (its id as `sonde ls COLLECTOR/agents`"
                    + " lists it, or a unique prefix); --token-file is then the collector's token")
    String agent;

    @Mixin
    TrustStoreOptions tlsTrust = new TrustStoreOptions();

    /**
     * Reads the token and connects (through the collector to {@code --agent} when given); every
     * failure is a {@link UserError} naming the endpoint or the file.
     */
    public ObserverClient connect(ObserveAddress address, Observer observer) {
        String token = token();
        SSLContext tls = tlsTrust.context();
        try {
            if (agent != null) return ObserverClient.connectRelayed(address.host(), address.port(), token, agent, observer, tls);
            return ObserverClient.connect(address.host(), address.port(), token, observer, tls);
        } catch (UnknownHostException e) {
            throw new UserError("cannot connect to " + address.endpoint() + ": unknown host '" + address.host() + "'");
        } catch (ConnectException e) {
            throw new UserError("cannot connect to " + address.endpoint() + ": connection refused"
                    + " (is the process running with its observe endpoint on this port?)");
        } catch (SocketTimeoutException e) {
            throw new UserError("cannot connect to " + address.endpoint() + ": timed out");
        } catch (ObserveException e) {
            if (tls != null && e.getMessage().contains("TLS handshake")) {
                throw new UserError("cannot connect to " + address.endpoint() + " with TLS: " + e.getMessage()
                        + " (--tls-trust-store " + tlsTrust.trustStore() + " must hold the endpoint's certificate or its CA, and the certificate"
                        + " must name " + address.host() + ")");
            }
            if (tls == null && e.code() == 0) {
                throw new UserError("cannot connect to " + address.endpoint() + ": " + e.getMessage() + plainHint(e));
            }
            if (e.code() == ObserveProtocol.ERR_BAD_TOKEN && agent != null && e.getMessage().contains("must be HELLO")) {
                throw new UserError(address.endpoint() + " does not relay to agents (--agent needs a collector's observe port): "
                        + e.getMessage());
            }
            if (e.code() == ObserveProtocol.ERR_BAD_TOKEN) {
                throw new UserError(address.endpoint() + " refused the token in " + tokenFile + ": " + e.getMessage());
            }
            throw failure(address, e);
        } catch (IOException e) {
            throw new UserError("cannot connect to " + address.endpoint() + ": " + e.getMessage() + (tls == null ? plainHint(e) : ""));
        }
    }

    /**
     * What to say when a plain connection failed before the endpoint answered: a TLS endpoint answers
     * a plain client with a TLS alert record (first byte 0x15) or just closes, so the user is told about
     * {@code --tls-trust-store}.
     */
    public static String plainHint(IOException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("bad magic byte 0x15") || m.contains("bad magic byte 0x16")
                ? " (the endpoint answered with TLS: give --tls-trust-store with its certificate)"
                : " (if the endpoint serves TLS, give --tls-trust-store)";
    }

    /**
     * The client TLS context trusting {@code trustStore} (password from the owner-only {@code passwordFile},
     * or none), or null for plain TCP when no store is given; every problem is a {@link UserError}
     * naming {@code option}.
     */
    public static SSLContext trust(String option, Path trustStore, Path passwordFile) {
        if (trustStore == null) {
            if (passwordFile != null) throw new UsageError(option + "-password-file needs " + option);
            return null;
        }
        char[] password = null;
        if (passwordFile != null) {
            try {
                password = TokenFile.read(passwordFile).toCharArray();
            } catch (IllegalArgumentException | UncheckedIOException e) {
                throw new UserError(option + "-password-file: " + e.getMessage());
            }
        }
        try {
            return TlsSockets.trusting(trustStore, password);
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            throw new UserError(option + ": " + (m.contains(trustStore.toString()) ? m : trustStore + ": " + m));
        } finally {
            if (password != null) java.util.Arrays.fill(password, '\0');
        }
    }

    private String token() {
        return readToken(tokenFile);
    }

    /** Reads a token file with the endpoint's rules (owner-only); every failure is a {@link UserError} naming the file. */
    public static String readToken(Path tokenFile) {
        try {
            return ObserveService.tokenFromFile(tokenFile);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        } catch (UncheckedIOException e) {
            IOException cause = e.getCause();
            String why = cause instanceof NoSuchFileException ? "no such file"
                    : cause instanceof AccessDeniedException ? "permission denied" : cause.toString();
            throw new UserError("token file " + tokenFile + ": " + why);
        }
    }

    /**
     * A failed request or a lost connection as a one-line error: a bad pattern or argument is a usage
     * error (exit 2), anything else a failure (exit 1).
     */
    public static UserError failure(ObserveAddress address, IOException e) {
        String message = address.endpoint() + ": " + e.getMessage();
        if (e instanceof ObserveException oe && oe.code() == ObserveProtocol.ERR_BAD_ARGUMENT) return new UsageError(message);
        return new UserError(message);
    }

    /** The error for a literal path that matched nothing. */
    static UserError unknownPath(ObserveAddress address, String path) {
        return new UserError(address.endpoint() + ": no object or attribute at path '" + path + "'");
    }

    /** Natural order of path segments: numbers by value ({@code 9} before {@code 10}), the rest as text. */
    static int compareNames(String a, String b) {
        boolean na = !a.isEmpty() && a.length() < 19 && a.chars().allMatch(Character::isDigit);
        boolean nb = !b.isEmpty() && b.length() < 19 && b.chars().allMatch(Character::isDigit);
        if (na && nb) return Long.compare(Long.parseLong(a), Long.parseLong(b));
        if (na != nb) return na ? -1 : 1;
        return a.compareTo(b);
    }

    /** Pads {@code rows} of cells into aligned columns separated by two spaces (the last one not padded). */
    static List<String> columns(List<String[]> rows) {
        int n = 0;
        for (String[] r : rows) n = Math.max(n, r.length);
        int[] width = new int[n];
        for (String[] r : rows) for (int i = 0; i < r.length; i++) width[i] = Math.max(width[i], r[i].length());
        return rows.stream().map(r -> {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                b.append(r[i]);
                if (i < r.length - 1) b.append(" ".repeat(width[i] - r[i].length() + 2));
            }
            return b.toString().stripTrailing();
        }).toList();
    }
}
