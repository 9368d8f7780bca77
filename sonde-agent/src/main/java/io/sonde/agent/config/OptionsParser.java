package io.sonde.agent.config;

import io.sonde.agent.pattern.Glob;
import io.sonde.agent.pattern.MethodFilter;
import io.sonde.agent.pattern.Rule;
import io.sonde.agent.pattern.ThreadFilter;
import io.sonde.core.config.ConfigException;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses the agent's options: the {@code -javaagent:sonde-agent.jar=OPTIONS} string (entries
 * separated by commas) and configuration files named by {@code config=FILE} (one entry per line,
 * {@code #} starts a comment). An entry is {@code key=value} or, as in the thesis' JPMT
 * configuration file, {@code key value}. Entries apply in the order read; a {@code config=FILE}
 * entry reads the file at that point. Filter rules accumulate in order; for other keys the last
 * value wins.
 *
 * <p>Errors never throw: each becomes one line naming the source, the line and the problem, and
 * the caller decides (the agent then starts unmonitored).
 */
public final class OptionsParser {

    /** Source name used for the inline options. */
    public static final String INLINE = "-javaagent options";
    /** Source name of the inline options of an attach ({@code sonde attach}). */
    public static final String ATTACH = "attach options";

    private static final String AGENT_KEYS =
            "config, include, exclude, include.thread, exclude.thread, cpu, executors, probes, jmx, verbose, weave.stats, weaver";

    private final List<Rule> methodRules = new ArrayList<>();
    private final List<Rule> threadRules = new ArrayList<>();
    private final Map<String, String> core = new LinkedHashMap<>();
    private final List<String> sources = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private boolean executors = true;
    private boolean probesOn = true;
    private boolean jmx = true;
    private boolean verbose = false;
    private boolean weaveStats = false;
    private AgentOptions.Weaver weaver = AgentOptions.Weaver.ASM;
    private int fileDepth;

    /** The outcome: options, usable only when {@code errors} is empty. */
    public record Result(AgentOptions options, List<String> errors) {
        /** True when there were no errors. */
        public boolean ok() {
            return errors.isEmpty();
        }
    }

    private OptionsParser() {}

    /** Parses an agent argument string (may be null or empty: then nothing is monitored). */
    public static Result parse(String agentArgs) {
        return parse(agentArgs, INLINE);
    }

    /** As {@link #parse(String)}, naming the inline options {@code source} ({@link #INLINE}, {@link #ATTACH}). */
    public static Result parse(String agentArgs, String source) {
        OptionsParser p = new OptionsParser();
        p.sources.add(source);
        if (agentArgs != null && !agentArgs.isBlank()) {
            String[] entries = agentArgs.split(",");
            for (int i = 0; i < entries.length; i++) {
                p.entry(entries[i], source + " entry " + (i + 1));
            }
        }
        return p.result();
    }

    private Result result() {
        AgentOptions o = new AgentOptions(
                new MethodFilter(methodRules), new ThreadFilter(threadRules), executors, probesOn, jmx, verbose, core,
                sources, weaveStats, weaver);
        return new Result(o, List.copyOf(errors));
    }

    private void entry(String raw, String where) {
        String line = raw.strip();
        if (line.isEmpty() || line.startsWith("#")) {
            return;
        }
        int eq = line.indexOf('=');
        int ws = indexOfWhitespace(line);
        String key;
        String value;
        if (eq > 0 && indexOfWhitespace(line.substring(0, eq).strip()) < 0) {
            key = line.substring(0, eq).strip();
            value = line.substring(eq + 1).strip();
        } else if (ws >= 0) {
            key = line.substring(0, ws);
            value = line.substring(ws).strip();
        } else {
            error(where, "'" + line + "' is not key=value");
            return;
        }
        if (key.isEmpty()) {
            error(where, "missing key before '='");
            return;
        }
        apply(key.toLowerCase(Locale.ROOT), key, value, where);
    }

    private void apply(String key, String original, String value, String where) {
        switch (key) {
            case "config" -> readFile(value, where);
            case "include", "include_method", "include.method" -> methodRules(true, value, original, where);
            case "exclude", "exclude_method", "exclude.method" -> methodRules(false, value, original, where);
            case "include.thread", "include_thread" -> threadRules(true, value, original, where);
            case "exclude.thread", "exclude_thread" -> threadRules(false, value, original, where);
            case "executors" -> executors = bool(value, original, where, executors);
            case "probes" -> probesOn = bool(value, original, where, probesOn);
            case "jmx" -> jmx = bool(value, original, where, jmx);
            case "verbose" -> verbose = bool(value, original, where, verbose);
            case "weave.stats" -> weaveStats = bool(value, original, where, weaveStats);
            case "weaver" -> {
                switch (value.toLowerCase(java.util.Locale.ROOT)) {
                    case "asm" -> weaver = AgentOptions.Weaver.ASM;
                    case "bytebuddy" -> weaver = AgentOptions.Weaver.BYTE_BUDDY;
                    default -> error(where, "bad value '" + value + "' for key '" + original + "': must be one of asm, bytebuddy");
                }
            }
            case "cpu" -> coreSetting("cpu.time", value, original, where);
            default -> coreSetting(original, value, original, where);
        }
    }

    /** A key of the core's configuration (writer, buffers, ...): checked now, so errors name the place. */
    private void coreSetting(String key, String value, String original, String where) {
        if (value.isEmpty()) {
            error(where, "option '" + original + "' has no value");
            return;
        }
        if (key.equals("config")) {
            return; // handled above; never reaches the core
        }
        if (ConfigKey.byKey(key) == null) {
            StringBuilder known = new StringBuilder(AGENT_KEYS);
            for (ConfigKey k : ConfigKey.values()) {
                if (k != ConfigKey.CONFIG) {
                    known.append(", ").append(k.key());
                }
            }
            error(where, "unknown option '" + original + "'; known options: " + known);
            return;
        }
        try {
            SondeConfig.of(Map.of(key, value));
            core.put(key, value);
        } catch (ConfigException e) {
            error(where, e.getMessage().replace(" (API setting " + key + ")", ""));
        }
    }

    private void methodRules(boolean include, String value, String key, String where) {
        for (String part : value.split(";")) {
            String p = part.strip();
            if (p.isEmpty()) {
                error(where, "option '" + key + "' has an empty pattern");
                continue;
            }
            // JPMT style "CLASS METHOD" (two words) means CLASS.METHOD.
            String[] words = p.split("\\s+");
            if (words.length == 2) {
                p = words[0] + "." + words[1];
            } else if (words.length > 2) {
                error(where, "option '" + key + "': pattern '" + p + "' has more than two words");
                continue;
            }
            methodRules.add(new Rule(include, Glob.of(p)));
        }
    }

    private void threadRules(boolean include, String value, String key, String where) {
        for (String part : value.split(";")) {
            String p = part.strip();
            if (p.isEmpty()) {
                error(where, "option '" + key + "' has an empty pattern");
                continue;
            }
            threadRules.add(new Rule(include, Glob.of(p)));
        }
    }

    private boolean bool(String value, String key, String where, boolean current) {
        switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1":
                return true;
            case "false", "no", "off", "0":
                return false;
            default:
                error(where, "option '" + key + "': expected on/off (true/false, yes/no), got '" + value + "'");
                return current;
        }
    }

    private void readFile(String name, String where) {
        if (name.isEmpty()) {
            error(where, "option 'config' has no file name");
            return;
        }
        if (fileDepth >= 8) {
            error(where, "config files nest deeper than 8 (a file includes itself?)");
            return;
        }
        Path path = Path.of(name);
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            error(where, "cannot read config file " + path.toAbsolutePath() + ": " + describe(e));
            return;
        }
        sources.add(path.toString());
        fileDepth++;
        for (int i = 0; i < lines.size(); i++) {
            entry(lines.get(i), path + " line " + (i + 1));
        }
        fileDepth--;
    }

    private static String describe(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "access denied";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private void error(String where, String message) {
        errors.add(where + ": " + message);
    }
}
