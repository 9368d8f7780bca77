package io.sonde.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fuzz of the configuration parser (about two seconds, at least 300 inputs;
 * {@code -Dsonde.fuzz.seed=N} to vary and {@code -Dsonde.fuzz.millis=M} to lengthen, the seed is
 * printed). It found three defects of the parser, fixed: a file line that is not UTF-8 gave
 * "Input length = 1" without a line number; a null API key threw NullPointerException; a missing
 * configuration file did not name the setting that named it (and a NUL in its name threw
 * InvalidPathException). Configuration files of random lines, valid ones among them mutated
 * (keys, separators, values, comments, whitespace, non-ASCII text, bytes that are not UTF-8), and
 * random API settings, environment variables and system properties: each input is accepted, or
 * rejected with a {@link ConfigException} that names the line (files) or the key, variable or
 * property (other sources); nothing else is ever thrown.
 */
class ConfigFuzzTest {
    private static final String[] KEYS;
    private static final String[] VALUES = {
        "file", "tcp", "discard", "text", "block", "drop", "block-forever", "on", "off", "roots", "0", "1", "-1", "4096", "65536",
        "262144", "1000000", "16777216", "99999999999999999999", "9223372036854775807", "-9223372036854775808", "0x10", "1e3", "+5",
        "\u0665\u0660\u0660\u0660", "", " ", "\t", "\u00a0", "\u2003", "127.0.0.1", "::1", "sonde-data", "/tmp/x y", "C:\\logs",
        "123e4567-e89b-12d3-a456-426614174000", "1-1-1-1-1", "not-a-uuid", "600", "640", "999", "\u00fc\u00e9\u4e2d", "a=b", "a:b", "#x", "!x",
        "\\", "\\u0041", "\"quoted\"", "x".repeat(300)
    };

    static {
        List<String> k = new ArrayList<>();
        for (ConfigKey c : ConfigKey.values()) k.add(c.key());
        k.addAll(List.of("unknown", "writerx", "Writer", "WRITER", "file.", ".dir", "sonde.writer", "", " ", "tcp port", "\u00fc", "config"));
        KEYS = k.toArray(new String[0]);
    }

    @TempDir
    Path dir;

    @Test
    void everyConfigurationIsAcceptedOrRejectedWithAnErrorNamingItsPlace() throws Exception {
        long seed = Long.getLong("sonde.fuzz.seed", 0x17C0F1L);
        long start = System.nanoTime();
        long deadline = start + Long.getLong("sonde.fuzz.millis", 2000) * 1_000_000L;
        long hardStop = start + 30_000_000_000L; // the first 300 inputs are checked even on a slow machine, within 30 s
        Random rnd = new Random(seed);
        int files = 0;
        int maps = 0;
        int accepted = 0;
        int rejected = 0;
        Path file = dir.resolve("sonde.properties");
        while ((files < 300 || System.nanoTime() < deadline) && files < 20_000 && System.nanoTime() < hardStop) {
            // a configuration file
            List<byte[]> lines = new ArrayList<>();
            int n = rnd.nextInt(8);
            for (int i = 0; i < n; i++) lines.add(line(rnd));
            Files.write(file, join(lines, rnd));
            files++;
            String what = "seed " + seed + ", file " + files + ": " + describe(lines);
            try {
                SondeConfig.readFile(file);
                accepted++;
            } catch (ConfigException e) {
                rejected++;
                assertThat(e.getMessage()).as(what).containsPattern("line [1-9][0-9]*");
                assertThat(e.getMessage()).as(what).contains(file.toString());
            } catch (RuntimeException e) {
                throw new AssertionError(what + ": " + e, e);
            }

            // API settings, environment variables and system properties
            Map<String, String> api = new HashMap<>();
            Map<String, String> env = new HashMap<>();
            Properties sys = new Properties();
            for (int i = rnd.nextInt(4); i > 0; i--) api.put(rnd.nextInt(40) == 0 ? null : pick(KEYS, rnd), rnd.nextInt(40) == 0 ? null : value(rnd));
            for (int i = rnd.nextInt(3); i > 0; i--) env.put(envName(rnd), value(rnd));
            for (int i = rnd.nextInt(3); i > 0; i--) sys.setProperty("sonde." + pick(KEYS, rnd), value(rnd));
            if (rnd.nextInt(10) == 0) api.put("config", file.toString());
            maps++;
            String where = "seed " + seed + ", settings " + maps + ": api " + api + " env " + env + " sys " + sys;
            try {
                SondeConfig c = SondeConfig.resolve(api, env, sys, true);
                assertThat(c.asMap()).as(where).hasSize(ConfigKey.values().length);
                accepted++;
            } catch (ConfigException e) {
                rejected++;
                assertThat(e.getMessage()).as(where).matches(m -> namesASource(m, api, env, sys, file), "names a key, variable, property or line");
            } catch (RuntimeException e) {
                throw new AssertionError(where + ": " + e, e);
            }
        }
        System.out.printf("config fuzz, seed %d: %d files and %d settings maps, %d accepted, %d rejected with a ConfigException%n", seed,
                files, maps, accepted, rejected);
        assertThat(files).isGreaterThanOrEqualTo(300);
        assertThat(accepted).isGreaterThan(files / 20);
        assertThat(rejected).isGreaterThan(files / 4);
    }

    private static boolean namesASource(String message, Map<String, String> api, Map<String, String> env, Properties sys, Path file) {
        if (message.contains(file.toString()) && message.matches("(?s).*line [1-9][0-9]*.*")) return true;
        for (String k : api.keySet()) if (k != null && (message.contains("'" + k + "'") || message.contains("API setting " + k))) return true;
        if (api.containsKey(null) && message.contains("API setting with no key")) return true;
        for (String k : env.keySet()) if (message.contains("environment variable " + k)) return true;
        for (String k : sys.stringPropertyNames()) if (message.contains("system property " + k)) return true;
        return false;
    }

    /** One line: a mutated valid line, a comment, a blank line, or random bytes. */
    private static byte[] line(Random rnd) {
        switch (rnd.nextInt(10)) {
            case 0:
                return (rnd.nextBoolean() ? "# " : "! ").concat(value(rnd)).getBytes(StandardCharsets.UTF_8);
            case 1:
                return " \t ".substring(rnd.nextInt(3)).getBytes(StandardCharsets.UTF_8);
            case 2: {
                byte[] b = new byte[rnd.nextInt(12)];
                rnd.nextBytes(b); // may be malformed UTF-8, may hold separators or line ends
                return b;
            }
            default: {
                String sep = pick(new String[] {"=", ":", " = ", ": ", "==", "=:", " ", ""}, rnd);
                String s = pad(rnd) + pick(KEYS, rnd) + sep + value(rnd) + pad(rnd);
                if (rnd.nextInt(5) == 0 && !s.isEmpty()) {
                    StringBuilder m = new StringBuilder(s);
                    m.setCharAt(rnd.nextInt(m.length()), (char) (rnd.nextInt(4) == 0 ? rnd.nextInt(0x3000) : 32 + rnd.nextInt(95)));
                    s = m.toString();
                }
                return s.getBytes(StandardCharsets.UTF_8);
            }
        }
    }

    private static byte[] join(List<byte[]> lines, Random rnd) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] l : lines) {
            out.writeBytes(l);
            out.writeBytes(pick(new String[] {"\n", "\r\n", "\r"}, rnd).getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }

    private static String describe(List<byte[]> lines) {
        List<String> out = new ArrayList<>();
        for (byte[] l : lines) out.add(new String(l, StandardCharsets.ISO_8859_1));
        return out.toString();
    }

    private static String pad(Random rnd) {
        return rnd.nextInt(4) == 0 ? pick(new String[] {" ", "\t", "  "}, rnd) : "";
    }

    private static String value(Random rnd) {
        String v = pick(VALUES, rnd);
        return rnd.nextInt(6) == 0 ? " " + v + " " : v;
    }

    private static String envName(Random rnd) {
        String k = pick(KEYS, rnd);
        String name = "SONDE_" + k.replace('.', '_').toUpperCase(java.util.Locale.ROOT);
        return rnd.nextInt(8) == 0 ? pick(new String[] {"SONDE_JAVA_OPTS", "SONDE_HOME", "PATH", "SONDE_", "SONDE_X"}, rnd) : name;
    }

    private static <T> T pick(T[] a, Random rnd) {
        return a[rnd.nextInt(a.length)];
    }
}
