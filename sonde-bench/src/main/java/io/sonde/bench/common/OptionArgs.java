package io.sonde.bench.common;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Walks the command-line options of a benchmark ({@code --name value} pairs and flags) and parses
 * the values they share; every error is an {@link IllegalArgumentException} naming the option.
 *
 * <pre>{@code
 * OptionArgs a = new OptionArgs(args);
 * while (a.next()) {
 *     if (a.option().equals("--quick")) { quick = true; continue; }
 *     String value = a.value();
 *     switch (a.option()) { ... }
 * }
 * }</pre>
 */
public final class OptionArgs {

    private final String[] args;
    private int index = -1;

    /** Options in {@code args}, before the first one. */
    public OptionArgs(String[] args) {
        this.args = args.clone();
    }

    /**
     * Moves to the next option; false at the end.
     *
     * @throws IllegalArgumentException when the next argument is not an option ({@code --...})
     */
    public boolean next() {
        index++;
        if (index >= args.length) {
            return false;
        }
        if (!args[index].startsWith("--")) {
            throw new IllegalArgumentException("unexpected argument '" + args[index] + "'");
        }
        return true;
    }

    /** The current option, e.g. {@code --runs}. */
    public String option() {
        return args[index];
    }

    /**
     * The current option's value (the argument after it), consumed.
     *
     * @throws IllegalArgumentException when there is none
     */
    public String value() {
        if (index + 1 >= args.length) {
            throw new IllegalArgumentException("option " + args[index] + " needs a value");
        }
        return args[++index];
    }

    /** Parses a whole number (underscores allowed) of at least {@code min}; the error names {@code option}. */
    public static long parseLong(String option, String value, long min) {
        long v;
        try {
            v = Long.parseLong(value.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + option + ": '" + value + "' is not a whole number");
        }
        if (v < min) {
            throw new IllegalArgumentException("option " + option + ": " + v + " is below the minimum " + min);
        }
        return v;
    }

    /** Checks that {@code value} is a JDK home (has {@code bin/java}). */
    public static Path checkJdk(String value) {
        Path home = Path.of(value);
        if (!Files.isExecutable(home.resolve("bin").resolve("java"))) {
            throw new IllegalArgumentException("option --jdk: " + value + " is not a JDK home (no bin/java)");
        }
        return home;
    }
}
