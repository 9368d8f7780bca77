package io.sonde.core.config;

import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Every configuration key, with its default and a validator. Keys are written without prefix here
 * and in configuration files; system properties add {@code sonde.}, environment variables use
 * {@code SONDE_} + the key in upper snake case ({@code file.segment.bytes} ->
 * {@code SONDE_FILE_SEGMENT_BYTES}).
 */
public enum ConfigKey {
    WRITER("writer", "file", "discard | file | text | tcp | kafka: where frames go (kafka needs sonde-kafka on the class path)") {
        @Override
        String check(String v) {
            return oneOf(v, "discard", "file", "text", "tcp", "kafka");
        }
    },
    FILE_DIR("file.dir", "sonde-data", "directory of the file writer's segment files (created if missing)") {
        @Override
        String check(String v) {
            return v.isBlank() ? "must not be empty" : null;
        }
    },
    FILE_SEGMENT_BYTES("file.segment.bytes", String.valueOf(64L << 20),
            "the file writer starts a new segment file when the current one would exceed this size") {
        @Override
        String check(String v) {
            return range(v, 4096, Long.MAX_VALUE);
        }
    },
    FILE_MODE("file.mode", "600", "permissions of new segment files, three octal digits (owner, group, others);"
            + " applied at creation on POSIX file systems, the umask still applies") {
        @Override
        String check(String v) {
            return v.trim().matches("[0-7]{3}") ? null : "must be three octal digits such as 600 or 640";
        }
    },
    FILE_MAXSIZE("file.maxsize", "0", "bound of this agent's segments in file.dir, e.g. 500m or 2g (k, m, g: powers of"
            + " 1024); the oldest segments are deleted whole beyond it, never the one being written; 0 = no bound") {
        @Override
        String check(String v) {
            return quantity(() -> Quantities.bytes(v), "must be a size such as 500m, 2g or a number of bytes (0 = no bound)");
        }
    },
    FILE_MAXAGE("file.maxage", "0", "segments of this agent whose last write is older than this are deleted whole,"
            + " e.g. 10m, 2h or 7d (units ms, s, m, h, d), never the one being written; 0 = no bound") {
        @Override
        String check(String v) {
            return quantity(() -> Quantities.millis(v), "must be a duration such as 30s, 10m, 2h or 7d (0 = no bound)");
        }
    },
    TEXT_OUT("text.out", "stdout", "text writer target: stdout, stderr or a file path") {
        @Override
        String check(String v) {
            return v.isBlank() ? "must not be empty" : null;
        }
    },
    TCP_HOST("tcp.host", "127.0.0.1", "host name or address of the receiver the tcp writer connects to") {
        @Override
        String check(String v) {
            return v.isBlank() ? "must not be empty" : null;
        }
    },
    TCP_PORT("tcp.port", "7711", "port of the receiver the tcp writer connects to") {
        @Override
        String check(String v) {
            return range(v, 1, 65535);
        }
    },
    TCP_CONNECT_TIMEOUT_MS("tcp.connect.timeout.ms", "2000", "timeout of one tcp connection attempt, milliseconds") {
        @Override
        String check(String v) {
            return range(v, 1, 600_000);
        }
    },
    TCP_ACK("tcp.ack", "true", "true: acknowledged delivery (format 2.2: handshake, resend of unacknowledged frames);"
            + " false: the one-way 2.0 stream for receivers that do not acknowledge") {
        @Override
        String check(String v) {
            return oneOf(v, "true", "false");
        }
    },
    TCP_RESEND_MIB("tcp.resend.mib", "4", "MiB of sent frames the tcp writer keeps until the collector acknowledges them"
            + " (full: the policy applies; drop counts reason resend-buffer-full)") {
        @Override
        String check(String v) {
            return range(v, 1, 4096);
        }
    },
    KAFKA_BOOTSTRAP("kafka.bootstrap", "127.0.0.1:9092", "writer=kafka: the Kafka brokers, HOST:PORT[,HOST:PORT...]") {
        @Override
        String check(String v) {
            return v.isBlank() ? "must not be empty" : null;
        }
    },
    KAFKA_TOPIC("kafka.topic", "sonde-frames", "writer=kafka: the topic frames are published to, keyed by agent id") {
        @Override
        String check(String v) {
            return v.matches("[a-zA-Z0-9._-]{1,249}") ? null : "must be a Kafka topic name: 1 to 249 of a-z A-Z 0-9 . _ -";
        }
    },
    TCP_TOKEN_FILE("tcp.token.file", "", "file holding the collector's token (owner-only, chmod 600); empty = no token") {
        @Override
        String check(String v) {
            return null;
        }
    },
    TCP_TLS("tcp.tls", "off", "off | on: the tcp writer speaks TLS to the collector (needs tcp.ack=true), verifying that the"
            + " collector's certificate names tcp.host") {
        @Override
        String check(String v) {
            return oneOf(v, "off", "on");
        }
    },
    TCP_TLS_TRUST_STORE("tcp.tls.trust.store", "", "trust store (PKCS12 or JKS) holding the collector's certificate or its CA;"
            + " empty = the JVM's default trust store") {
        @Override
        String check(String v) {
            return null;
        }
    },
    TCP_TLS_TRUST_STORE_PASSWORD_FILE("tcp.tls.trust.store.password.file", "", "file holding the trust store's password"
            + " (owner-only, chmod 600); empty = a store without integrity check") {
        @Override
        String check(String v) {
            return null;
        }
    },
    BUFFER_BYTES("buffer.bytes", String.valueOf(256 << 10), "ring bytes per producing thread, a power of two") {
        @Override
        String check(String v) {
            String e = range(v, 256, 1 << 30);
            if (e != null) return e;
            long n = Long.parseLong(v.trim());
            return Long.bitCount(n) == 1 ? null : "must be a power of two";
        }
    },
    BUFFERS_MAX("buffers.max", "1024", "at most this many threads get a ring; further threads drop (reason no buffer)") {
        @Override
        String check(String v) {
            return range(v, 1, 1_000_000);
        }
    },
    POLICY("policy", "block", "block | drop | block-forever: what a producer does when its ring is full") {
        @Override
        String check(String v) {
            return oneOf(v, "block", "drop", "block-forever");
        }
    },
    BLOCK_TIMEOUT_MS("block.timeout.ms", "100",
            "policy block: longest wait for ring space before the producer drops (reason buffer full) until its ring has room") {
        @Override
        String check(String v) {
            return range(v, 0, 3_600_000);
        }
    },
    FLUSH_INTERVAL_MS("flush.interval.ms", "100", "writer poll interval and upper bound on how long a record waits in a frame") {
        @Override
        String check(String v) {
            return range(v, 1, 60_000);
        }
    },
    FRAME_BYTES("frame.bytes", String.valueOf(256 << 10), "a frame is sent when it would exceed this size") {
        @Override
        String check(String v) {
            return range(v, 4096, 16 << 20);
        }
    },
    COMPRESS("compress", "off", "off | lz4: compress each DATA frame's payload (LZ4 block format, format 2.4) on the"
            + " writer thread; frames carrying definitions and frames that would not shrink stay as they are") {
        @Override
        String check(String v) {
            return oneOf(v, "off", "lz4");
        }
    },
    PACKING("packing", "fill", "fill | none | static:N | adaptive | adaptive:cpu | adaptive:wall: data records per frame"
            + " (fill: up to frame.bytes; static:N: at most N; none: 1; adaptive: a power of two following the measured"
            + " cost per record, at most the largest whose records fit in a frame, the writer thread's CPU time (adaptive, adaptive:cpu) or wall-clock time (adaptive:wall))") {
        @Override
        String check(String v) {
            String s = v.trim();
            if (List.of("fill", "none", "adaptive", "adaptive:cpu", "adaptive:wall").contains(s)) return null;
            if (s.startsWith("static:") && range(s.substring(7), 1, Integer.MAX_VALUE) == null) return null;
            return "must be fill, none, adaptive, adaptive:cpu, adaptive:wall or static:N with N records per frame, 1 .. "
                    + Integer.MAX_VALUE;
        }
    },
    PACKING_MAXWAIT_MS("packing.maxwait.ms", "100", "packing none, static:N and adaptive: the longest a record waits"
            + " before its frame is handed to the writer") {
        @Override
        String check(String v) {
            return range(v, 1, 60_000);
        }
    },
    PACKING_INTERVAL_MS("packing.interval.ms", "500", "packing adaptive: how often the packing degree is compared with"
            + " a neighbouring degree (10 alternating slices) and takes at most one step") {
        @Override
        String check(String v) {
            return range(v, 10, 60_000);
        }
    },
    CPU_TIME("cpu.time", "off", "off | on | roots: thread CPU time on every enter/exit, or only at trace roots") {
        @Override
        String check(String v) {
            return oneOf(v, "off", "on", "roots");
        }
    },
    AGENT_ID("agent.id", "", "agent UUID written in every frame header; empty = random per start") {
        @Override
        String check(String v) {
            if (v.isBlank()) return null;
            try {
                UUID.fromString(v.trim());
                return null;
            } catch (IllegalArgumentException e) {
                return "must be a UUID such as 123e4567-e89b-12d3-a456-426614174000";
            }
        }
    },
    SHUTDOWN_TIMEOUT_MS("shutdown.timeout.ms", "10000", "how long close() and the shutdown hook wait for the final drain") {
        @Override
        String check(String v) {
            return range(v, 0, 3_600_000);
        }
    },
    BUDGET("budget", "off", "java agent only: off, or the overhead budget in percent of the application's CPU time"
            + " (e.g. 5 or 2.5); when over it, the agent switches off the probes that cost most and tell least") {
        @Override
        String check(String v) {
            try {
                double p = budgetPercent(v);
                return p < 0 || (p > 0 && p <= 100) ? null : "must be off or a percentage above 0 and at most 100";
            } catch (NumberFormatException e) {
                return "must be off or a percentage such as 5 or 2.5";
            }
        }
    },
    BUDGET_PIN("budget.pin", "", "java agent only: method patterns (;-separated) whose probes the budget never"
            + " switches off") {
        @Override
        String check(String v) {
            for (String p : v.split(";", -1)) {
                if (p.isBlank() && !v.isBlank()) return "has an empty pattern";
            }
            return null;
        }
    },
    BUDGET_INTERVAL_MS("budget.interval.ms", "1000", "java agent only: how often the budget compares the agent's"
            + " estimated cost with the application's CPU time") {
        @Override
        String check(String v) {
            return range(v, 50, 60_000);
        }
    },
    BUDGET_TRIVIAL("budget.trivial", "on", "java agent only: on | off: with a budget, leave methods of at most 6 bytes"
            + " of bytecode (HotSpot's MaxTrivialSize: getters, setters, constants) out of the code when first woven") {
        @Override
        String check(String v) {
            return oneOf(v, "on", "off");
        }
    },
    BUDGET_STATE("budget.state", "", "java agent only: a file where the budget keeps the probes it switched off, so"
            + " that the next start leaves them out of the code from the beginning (empty: not kept)") {
        @Override
        String check(String v) {
            return v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0 ? "must be one file path" : null;
        }
    },
    OBSERVE("observe", "off", "off | on: start the observe endpoint (live monitoring, docs/live.md) on observe.bind (127.0.0.1)") {
        @Override
        String check(String v) {
            return oneOf(v, "off", "on");
        }
    },
    OBSERVE_PORT("observe.port", "7712", "TCP port of the observe endpoint (0 = any free port)") {
        @Override
        String check(String v) {
            return range(v, 0, 65535);
        }
    },
    OBSERVE_TOKEN_FILE("observe.token.file", "", "file holding the observe endpoint's token, readable only by its owner;"
            + " empty = a random token written to a new owner-only file observe-PID.token in file.dir (file writer)"
            + " or else the temporary directory") {
        @Override
        String check(String v) {
            return null;
        }
    },
    OBSERVE_BIND("observe.bind", "127.0.0.1", "address the observe endpoint binds to (observe=on); an address that is not"
            + " loopback is refused unless observe.tls.key.store is set: the token would cross the network in clear text") {
        @Override
        String check(String v) {
            return v.isBlank() ? "must be an address, e.g. 127.0.0.1 or 0.0.0.0" : null;
        }
    },
    OBSERVE_TLS_KEY_STORE("observe.tls.key.store", "", "key store (PKCS12 or JKS) with the observe endpoint's key pair and"
            + " certificate: the endpoint then serves TLS only, and the tcp writer announces it as TLS; empty = plain TCP") {
        @Override
        String check(String v) {
            return null;
        }
    },
    OBSERVE_TLS_PASSWORD_FILE("observe.tls.password.file", "", "file holding observe.tls.key.store's password, readable only"
            + " by its owner (chmod 600); required with observe.tls.key.store") {
        @Override
        String check(String v) {
            return null;
        }
    },
    OBSERVE_ADVERTISED_HOST("observe.advertised.host", "", "host name or address the tcp writer announces to the collector for"
            + " this process's observe endpoint (observe=on); empty = the address the collector sees the connection come from") {
        @Override
        String check(String v) {
            return null;
        }
    },
    PROMETHEUS_PORT("prometheus.port", "", "TCP port of the agent's Prometheus endpoint (GET /metrics: per-operation calls, errors"
            + " and latency histograms, drops, pipeline health, the live tree's numbers; docs/prometheus.md); empty = off, 0 = any free port") {
        @Override
        String check(String v) {
            return v.isBlank() ? null : range(v, 0, 65535);
        }
    },
    PROMETHEUS_BIND("prometheus.bind", "127.0.0.1", "address the Prometheus endpoint binds to (another address exposes it to the network)") {
        @Override
        String check(String v) {
            return v.isBlank() ? "must be an address, e.g. 127.0.0.1" : null;
        }
    },
    CONFIG("config", "", "path of a properties file with further keys (not allowed inside that file)") {
        @Override
        String check(String v) {
            return null;
        }
    };

    private final String key;
    private final String defaultValue;
    private final String meaning;

    ConfigKey(String key, String defaultValue, String meaning) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /** The plain key, as in a configuration file. */
    public String key() {
        return key;
    }

    public String defaultValue() {
        return defaultValue;
    }

    public String meaning() {
        return meaning;
    }

    /** The system property name: {@code sonde.} + key. */
    public String systemProperty() {
        return "sonde." + key;
    }

    /** The environment variable name: {@code SONDE_} + key in upper snake case. */
    public String environmentVariable() {
        return "SONDE_" + key.replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /** Returns null if {@code value} is acceptable, else what is wrong with it. */
    abstract String check(String value);

    public static ConfigKey byKey(String key) {
        for (ConfigKey k : values()) {
            if (k.key.equals(key)) return k;
        }
        return null;
    }

    /** The budget as a percentage, or -1 for {@code off}; throws NumberFormatException for anything else. */
    public static double budgetPercent(String v) {
        String s = v.trim();
        if (s.equalsIgnoreCase("off")) return -1;
        if (s.endsWith("%")) s = s.substring(0, s.length() - 1).trim();
        double p = Double.parseDouble(s);
        if (Double.isNaN(p) || Double.isInfinite(p) || !s.matches("[0-9.]+")) throw new NumberFormatException(v);
        return p;
    }

    /** Null if {@code parse} accepts the value, else {@code problem} (which must not quote the value: see SondeConfig). */
    private static String quantity(java.util.function.LongSupplier parse, String problem) {
        try {
            parse.getAsLong();
            return null;
        } catch (IllegalArgumentException e) {
            return problem;
        }
    }

    static String oneOf(String v, String... allowed) {
        return List.of(allowed).contains(v.trim()) ? null : "must be one of " + String.join(", ", allowed);
    }

    static String range(String v, long min, long max) {
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return "must be a whole number";
        }
        if (n < min || n > max) {
            return max == Long.MAX_VALUE ? "must be at least " + min : "must be between " + min + " and " + max;
        }
        return null;
    }
}
