package io.sonde.sim.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A named set of calibrated model parameters (service demands in milliseconds, scheduler settings,
 * network and client delays). Profiles are {@code .properties} files: either a resource
 * {@code io/sonde/sim/profile/NAME.properties} shipped with Sonde, or a file path given by the user.
 *
 * <p>The default profile {@value #DEFAULT} reproduces the thesis' Pentium III 550 MHz server running
 * ORBacus/Java 4.1.1 on Linux 2.4 and Java 1.4.1; docs/simulator.md documents the origin of every value.
 */
public final class CalibrationProfile {

    /** Name of the default profile. */
    public static final String DEFAULT = "p3-550-orbacus";

    private final String name;
    private final Map<String, String> values;

    private CalibrationProfile(String name, Map<String, String> values) {
        this.name = name;
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
    }

    /** Loads the default profile. */
    public static CalibrationProfile defaultProfile() {
        return load(DEFAULT);
    }

    /**
     * Loads a profile by resource name (e.g. {@code p3-550-orbacus}) or by a path to a
     * {@code .properties} file.
     *
     * @throws IllegalArgumentException naming the profile when it cannot be found or read
     */
    public static CalibrationProfile load(String nameOrPath) {
        Properties p = new Properties();
        String resource = "/io/sonde/sim/profile/" + nameOrPath + ".properties";
        try (InputStream in = CalibrationProfile.class.getResourceAsStream(resource)) {
            if (in != null) {
                try (Reader r = new java.io.InputStreamReader(in, StandardCharsets.UTF_8)) {
                    p.load(r);
                }
                return fromProperties(nameOrPath, p);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("profile " + nameOrPath + ": " + e.getMessage(), e);
        }
        Path path = Path.of(nameOrPath);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("unknown profile '" + nameOrPath
                    + "' (neither a built-in profile such as " + DEFAULT + " nor a readable .properties file)");
        }
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("profile file " + path + ": " + e.getMessage(), e);
        }
        // A user profile inherits every value it does not set from the default profile.
        Map<String, String> merged = new TreeMap<>(defaultProfile().values);
        for (String k : p.stringPropertyNames()) {
            merged.put(k, p.getProperty(k).trim());
        }
        return new CalibrationProfile(path.toString(), merged);
    }

    private static CalibrationProfile fromProperties(String name, Properties p) {
        Map<String, String> m = new TreeMap<>();
        for (String k : p.stringPropertyNames()) {
            m.put(k, p.getProperty(k).trim());
        }
        return new CalibrationProfile(name, m);
    }

    /** Returns a copy with one value replaced (used by calibration searches and tests). */
    public CalibrationProfile with(String key, double value) {
        Map<String, String> m = new TreeMap<>(values);
        m.put(key, Double.toString(value));
        return new CalibrationProfile(name, m);
    }

    /** Returns a copy with one text value replaced. */
    public CalibrationProfile with(String key, String value) {
        Map<String, String> m = new TreeMap<>(values);
        m.put(key, value);
        return new CalibrationProfile(name, m);
    }

    /** The profile's name (resource name or file path). */
    public String name() {
        return name;
    }

    /** All keys and values, sorted by key. */
    public Map<String, String> values() {
        return values;
    }

    /**
     * A numeric parameter.
     *
     * @throws IllegalArgumentException naming the key when missing or not a number
     */
    public double number(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("profile " + name + ": missing parameter '" + key + "'");
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("profile " + name + ": parameter '" + key + "' is not a number: '" + v + "'");
        }
    }

    /**
     * The names of the parameters whose values were fitted to measurements (the profile's
     * {@code fitted_parameters} list, comma separated); every other value is taken from a
     * measurement or statement of the source (docs/simulator.md, "Calibration profile").
     */
    public List<String> fittedParameters() {
        List<String> out = new ArrayList<>();
        for (String k : values.getOrDefault("fitted_parameters", "").split(",")) {
            if (!k.isBlank()) {
                out.add(k.strip());
            }
        }
        return out;
    }

    /** A text parameter, or the fallback when absent. */
    public String text(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }
}
