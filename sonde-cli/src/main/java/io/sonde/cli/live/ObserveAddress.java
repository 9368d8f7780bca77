package io.sonde.cli.live;

import io.sonde.cli.UsageError;

/**
 * A command-line address of an observe endpoint, {@code HOST:PORT[/PATH]}: host name or address
 * (IPv6 in brackets, {@code [::1]:7712}), port 1..65535, and an optional path in the observed
 * process's tree (slashes at its ends are dropped; empty = the root).
 */
public record ObserveAddress(String host, int port, String path) {

    /** Parses {@code text}; a path is refused unless {@code pathAllowed}. Errors are usage errors naming the problem. */
    public static ObserveAddress parse(String text, boolean pathAllowed) {
        String hostPort = text;
        String path = "";
        int slash = text.indexOf('/');
        if (slash >= 0) {
            hostPort = text.substring(0, slash);
            path = strip(text.substring(slash + 1));
            if (!pathAllowed) {
                throw new UsageError("address '" + text + "': expected HOST:PORT without a path (give the pattern as the next argument)");
            }
        }
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? "" : hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        if (colon < 0 || host.isEmpty() || host.indexOf(':') >= 0 && !hostPort.startsWith("[")) {
            throw new UsageError("address '" + text + "': expected HOST:PORT" + (pathAllowed ? "[/PATH]" : "")
                    + " such as 127.0.0.1:7712");
        }
        String p = hostPort.substring(colon + 1);
        int port;
        try {
            port = Integer.parseInt(p);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535 || !p.chars().allMatch(Character::isDigit)) {
            throw new UsageError("address '" + text + "': port '" + p + "' is not a number between 1 and 65535");
        }
        return new ObserveAddress(host, port, path);
    }

    private static String strip(String path) {
        int from = 0;
        int to = path.length();
        while (from < to && path.charAt(from) == '/') from++;
        while (to > from && path.charAt(to - 1) == '/') to--;
        return path.substring(from, to);
    }

    /** {@code HOST:PORT}, as users write it. */
    public String endpoint() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** Whether {@code pattern} has no wildcard, so it names one path. */
    static boolean isLiteral(String pattern) {
        return pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0;
    }
}
