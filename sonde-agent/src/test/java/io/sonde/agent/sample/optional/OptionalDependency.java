package io.sonde.agent.sample.optional;

/**
 * Stands for an optional library: {@link io.sonde.agent.sample.OptionalUserApp} is compiled against
 * it, and {@code MissingOptionalDependencyIT} runs that application without it on the class path (as
 * H2 runs without JTS for {@code org.h2.value.ValueGeometry}).
 */
public final class OptionalDependency {

    public int size() {
        return 1;
    }
}
