package io.sonde.core.writer;

import io.sonde.core.config.SondeConfig;

/**
 * A writer plug-in: {@code writer=<name>} for a name that is not built in makes {@link Writers}
 * look for a provider of that name with {@link java.util.ServiceLoader} (listed in
 * {@code META-INF/services/io.sonde.core.writer.WriterProvider}, public no-argument constructor).
 * sonde-kafka provides {@code kafka}.
 */
public interface WriterProvider {
    /** The {@code writer} value this provider answers to. */
    String name();

    /** A new writer for the configuration; a bad setting is an {@link IllegalArgumentException} naming it. */
    Writer create(SondeConfig config);
}
