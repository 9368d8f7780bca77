package io.sonde.core.config;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

/**
 * The resolved configuration of one monitor. Sources, lowest precedence first: defaults, the
 * properties file named by {@code config} (from the API, system property {@code sonde.config} or
 * environment variable {@code SONDE_CONFIG}), environment variables {@code SONDE_*}, system
 * properties {@code sonde.*}, explicit API settings. Unknown keys and bad values raise a
 * {@link ConfigException} naming key, value and source.
 */
public final class SondeConfig {
    /** Environment variables with the SONDE_ prefix that belong to the launcher, not to the monitor. */
    private static final Set<String> FOREIGN_ENVIRONMENT = Set.of("SONDE_JAVA_OPTS", "SONDE_HOME", "SONDE_AGENT_JAR");
    /**
     * System properties with the sonde. prefix that belong to the agent's JMX connector
     * ({@code io.sonde.core.control.LoopbackConnector} publishes them), not to the monitor.
     */
    private static final Set<String> FOREIGN_PROPERTIES = Set.of("sonde.control.agent", "sonde.control.url",
            "sonde.control.token");

    private final Map<ConfigKey, String> values;
    private final Map<ConfigKey, String> sources;

    private SondeConfig(Map<ConfigKey, String> values, Map<ConfigKey, String> sources) {
        this.values = values;
        this.sources = sources;
    }

    /** Defaults only (no file, environment or system properties): handy in tests. */
    public static SondeConfig defaults() {
        return resolve(Map.of(), Map.of(), new Properties(), false);
    }

    /** Defaults overridden by the given API settings only (ignores file, environment and system properties). */
    public static SondeConfig of(Map<String, String> apiSettings) {
        return resolve(apiSettings, Map.of(), new Properties(), true);
    }

    /** All sources: the process environment, system properties and the given API settings. */
    public static SondeConfig load(Map<String, String> apiSettings) {
        return resolve(apiSettings, System.getenv(), System.getProperties(), true);
    }

    /**
     * Resolves the configuration from explicit sources (the testable core of {@link #load}).
     *
     * @param readFile whether to read the file named by the {@code config} key
     */
    public static SondeConfig resolve(Map<String, String> api, Map<String, String> env, Properties sys, boolean readFile) {
        Map<ConfigKey, String> values = new EnumMap<>(ConfigKey.class);
        Map<ConfigKey, String> sources = new EnumMap<>(ConfigKey.class);
        for (ConfigKey k : ConfigKey.values()) {
            values.put(k, k.defaultValue());
            sources.put(k, "default");
        }
        // collect each layer first (validated), then find the config file from the upper layers
        Map<ConfigKey, String[]> envLayer = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(env).entrySet()) {
            String name = e.getKey();
            if (!name.startsWith("SONDE_") || FOREIGN_ENVIRONMENT.contains(name)) continue;
            ConfigKey k = null;
            for (ConfigKey c : ConfigKey.values()) {
                if (c.environmentVariable().equals(name)) k = c;
            }
            String source = "environment variable " + name;
            if (k == null) throw unknown(name, e.getValue(), source);
            envLayer.put(k, new String[] {check(k, e.getValue(), source), source});
        }
        Map<ConfigKey, String[]> sysLayer = new LinkedHashMap<>();
        for (String name : new java.util.TreeSet<>(sys.stringPropertyNames())) {
            if (!name.startsWith("sonde.") || FOREIGN_PROPERTIES.contains(name)) continue;
            String source = "system property " + name;
            ConfigKey k = ConfigKey.byKey(name.substring("sonde.".length()));
            String v = sys.getProperty(name);
            if (k == null) throw unknown(name, v, source);
            sysLayer.put(k, new String[] {check(k, v, source), source});
        }
        Map<ConfigKey, String[]> apiLayer = new LinkedHashMap<>();
        for (String key : api.keySet()) {
            // a null key made the sorted copy below throw NullPointerException (found by the configuration fuzz test)
            if (key == null) throw new ConfigException("an API setting with no key (null) was given");
        }
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(api).entrySet()) {
            String source = "API setting " + e.getKey();
            ConfigKey k = ConfigKey.byKey(e.getKey());
            if (k == null) throw unknown(e.getKey(), e.getValue(), source);
            if (e.getValue() == null) throw new ConfigException("key '" + e.getKey() + "' has no value (" + source + ")");
            apiLayer.put(k, new String[] {check(k, e.getValue(), source), source});
        }
        String configFile = null;
        String configSource = null;
        for (Map<ConfigKey, String[]> layer : List.of(envLayer, sysLayer, apiLayer)) {
            String[] c = layer.get(ConfigKey.CONFIG);
            if (c != null && !c[0].isBlank()) {
                configFile = c[0];
                configSource = c[1];
            }
        }
        if (readFile && configFile != null) {
            for (Map.Entry<ConfigKey, String[]> e : readFile(configPath(configFile, configSource)).entrySet()) {
                values.put(e.getKey(), e.getValue()[0]);
                sources.put(e.getKey(), e.getValue()[1]);
            }
        }
        for (Map<ConfigKey, String[]> layer : List.of(envLayer, sysLayer, apiLayer)) {
            for (Map.Entry<ConfigKey, String[]> e : layer.entrySet()) {
                values.put(e.getKey(), e.getValue()[0]);
                sources.put(e.getKey(), e.getValue()[1]);
            }
        }
        return new SondeConfig(values, sources);
    }

    /**
     * Reads a configuration file: {@code key = value} or {@code key: value} lines, {@code #} or
     * {@code !} comments, blank lines. No line continuations or escapes.
     */
    static Map<ConfigKey, String[]> readFile(Path file) {
        List<String> lines = readLines(file);
        Map<ConfigKey, String[]> out = new LinkedHashMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) continue;
            String source = "file " + file + " line " + (n + 1);
            int eq = line.indexOf('=');
            int colon = line.indexOf(':');
            int sep = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
            // a configuration file may hold secrets: errors name file, line and key, never the line's text or value
            if (sep <= 0) {
                throw new ConfigException("the line is not 'key = value' (" + source + "; its text is not shown)");
            }
            String key = line.substring(0, sep).strip();
            String value = line.substring(sep + 1).strip();
            ConfigKey k = ConfigKey.byKey(key);
            if (k == null) throw unknown(key, null, source);
            if (k == ConfigKey.CONFIG) {
                throw new ConfigException("key 'config' is not allowed inside a configuration file (" + source + ")");
            }
            out.put(k, new String[] {check(k, value, null, source), source});
        }
        return out;
    }

    /**
     * The path of the configuration file, which must be a readable file; else an error naming the
     * setting that named it (found by the configuration fuzz test: a missing file said only
     * "cannot read configuration file 999: 999", a NUL in the name threw InvalidPathException).
     */
    private static Path configPath(String name, String namedBy) {
        try {
            Path p = Path.of(name);
            if (Files.isRegularFile(p) && Files.isReadable(p)) return p;
            throw new ConfigException("configuration file " + name + " (" + namedBy + ") "
                    + (Files.exists(p) ? "is not a readable file" : "does not exist"));
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException("configuration file name '" + name + "' (" + namedBy + ") is not a valid path: " + e.getReason());
        }
    }

    /**
     * The lines of a file (ended by LF, CR or CR LF, as {@link Files#readAllLines} splits them),
     * each decoded as UTF-8: a line that is not UTF-8 is an error naming its number (found by the
     * configuration fuzz test: it was "cannot read configuration file ...: Input length = 1").
     */
    private static List<String> readLines(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder(); // reports malformed input
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            // CR and LF never occur inside a UTF-8 multi-byte sequence, so lines split at bytes
            if (i < bytes.length && bytes[i] != '\n' && bytes[i] != '\r') continue;
            if (i == bytes.length && start == i) break;
            try {
                lines.add(utf8.decode(ByteBuffer.wrap(bytes, start, i - start)).toString());
            } catch (CharacterCodingException e) {
                throw new ConfigException("the line is not valid UTF-8 (file " + file + " line " + (lines.size() + 1) + ")");
            }
            if (i + 1 < bytes.length && bytes[i] == '\r' && bytes[i + 1] == '\n') i++;
            start = i + 1;
        }
        return lines;
    }

    /**
     * The value of an unknown key is never shown: a misspelt key may well be a secret's (a token),
     * and this message ends up in application logs.
     */
    private static ConfigException unknown(String key, String value, String source) {
        StringBuilder known = new StringBuilder();
        for (ConfigKey k : ConfigKey.values()) {
            if (known.length() > 0) known.append(", ");
            known.append(k.key());
        }
        return new ConfigException("unknown configuration key '" + key + "' (" + source + "); known keys: " + known);
    }

    private static String check(ConfigKey k, String value, String source) {
        return check(k, value, value, source);
    }

    /** @param shown the value as shown in the error, or null to leave it out (values from a file) */
    private static String check(ConfigKey k, String value, String shown, String source) {
        String problem = k.check(value);
        if (problem != null) {
            throw new ConfigException("bad value " + (shown != null ? "'" + shown + "' " : "") + "for key '" + k.key()
                    + "' (" + source + (shown != null ? "" : "; the value is not shown") + "): " + problem);
        }
        return value.trim();
    }

    // ---- typed access

    public String get(ConfigKey k) {
        return values.get(k);
    }

    /** Where the value of {@code k} came from, e.g. "default" or "system property sonde.policy". */
    public String source(ConfigKey k) {
        return sources.get(k);
    }

    public long getLong(ConfigKey k) {
        return Long.parseLong(values.get(k));
    }

    public int getInt(ConfigKey k) {
        return Integer.parseInt(values.get(k));
    }

    /** Every key with its value, in declaration order. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        values.forEach((k, v) -> m.put(k.key(), v));
        return Collections.unmodifiableMap(m);
    }

    /** The configured agent id, or a random one when {@code agent.id} is empty. */
    public UUID agentIdOrRandom() {
        String v = values.get(ConfigKey.AGENT_ID);
        return v.isEmpty() ? UUID.randomUUID() : UUID.fromString(v);
    }

    /** A copy with one more value (precedence of an explicit API setting). */
    public SondeConfig with(String key, String value) {
        ConfigKey k = ConfigKey.byKey(key);
        String source = "API setting " + key;
        if (k == null) throw unknown(key, value, source);
        Map<ConfigKey, String> v = new EnumMap<>(values);
        Map<ConfigKey, String> s = new EnumMap<>(sources);
        v.put(k, check(k, value, source));
        s.put(k, source);
        return new SondeConfig(v, s);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
