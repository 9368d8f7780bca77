package io.sonde.bench.real;

import io.sonde.bench.overhead.framework.ArtifactCache;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The real libraries {@code sonde bench real} runs, what to fetch for each, and what each
 * framework is told to instrument (the same classes for both agents).
 */
public enum RealWorkload {
    /** H2 in memory, a JDBC workload; every class of {@code org.h2}. */
    H2("h2", "com.h2database", "h2", "2.5.252", List.of("org.h2.")),
    /** Javalin 7 on Jetty 12 with an HTTP client in the same JVM; Javalin's and Jetty's classes. */
    HTTP("http", "io.javalin", "javalin", "7.2.3", List.of("io.javalin.", "org.eclipse.jetty.")),
    /**
     * Jackson databind, JSON to objects and back; Jackson's classes. Not in the default set: a
     * workload none of the budget's choices were made on, run on demand ({@code --workloads json}).
     */
    JSON("json", "com.fasterxml.jackson.core", "jackson-databind", "2.22.4", List.of("com.fasterxml.jackson."));

    /** The workloads run when none are named. */
    public static final List<RealWorkload> DEFAULT = List.of(H2, HTTP);

    private final String label;
    private final String group;
    private final String artifact;
    private final String version;
    private final List<String> packages;

    RealWorkload(String label, String group, String artifact, String version, List<String> packages) {
        this.label = label;
        this.group = group;
        this.artifact = artifact;
        this.version = version;
        this.packages = packages;
    }

    /** The name in options and output. */
    public String label() {
        return label;
    }

    /** The library benchmarked, {@code group:artifact:version}. */
    public String library() {
        return group + ":" + artifact + ":" + version;
    }

    /** Sonde's {@code include} value: {@code org.h2.*}, several joined by {@code ;}. */
    public String sondeInclude() {
        return String.join(";", packages.stream().map(p -> p + "*").toList());
    }

    /**
     * Kieker's {@code KIEKER_SIGNATURES_INCLUDE}: class patterns without a parameter list
     * ({@code org.h2.*}), which Kieker 2.0.2's agent matches against class names with wildcards,
     * instrumenting every method of a matching class (not constructors, not interfaces).
     */
    public String kiekerInclude() {
        return sondeInclude();
    }

    /** The library's run-time class path (without the workload program), fetched through {@code cache}. */
    public List<Path> classPath(ArtifactCache cache) throws IOException {
        if (this == H2) {
            return List.of(cache.jar(group, artifact, version, null)); // no dependencies
        }
        return cache.classPath(group, artifact, version);
    }

    /** Parses a workload name. */
    public static RealWorkload parse(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        for (RealWorkload w : values()) {
            if (w.label.equals(wanted)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + text + "' (expected h2, http or json)");
    }
}
