package io.sonde.api.internal;

import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.pipeline.Pipeline;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Not API (see the package comment): starting a monitor from a resolved {@link SondeConfig},
 * wrapping a directly built {@link Pipeline}, and reaching the pipeline of a {@link Monitor}.
 */
public final class MonitorAccess {
    private MonitorAccess() {}

    private static final MethodHandle START;
    private static final MethodHandle STARTED;
    private static final MethodHandle PIPELINE;

    static {
        try {
            // same module as the API classes, so a private lookup is allowed
            MethodHandles.Lookup sonde = MethodHandles.privateLookupIn(Sonde.class, MethodHandles.lookup());
            START = sonde.findStatic(Sonde.class, "start", MethodType.methodType(Monitor.class, SondeConfig.class));
            STARTED = sonde.findStatic(Sonde.class, "started", MethodType.methodType(Monitor.class, Pipeline.class));
            MethodHandles.Lookup monitor = MethodHandles.privateLookupIn(Monitor.class, MethodHandles.lookup());
            PIPELINE = monitor.findVirtual(Monitor.class, "pipeline", MethodType.methodType(Pipeline.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Starts a monitor with exactly this configuration (unlike {@link Sonde#start(java.util.Map)},
     * which also reads the config file, environment and system properties when the caller built
     * the configuration with {@link SondeConfig#of}); it becomes {@link Sonde#current()}.
     */
    public static Monitor start(SondeConfig config) {
        return invoke(() -> (Monitor) START.invokeExact(config));
    }

    /**
     * Wraps a running pipeline built directly (embedders and tests that inject a writer or a
     * fixed identity); it becomes {@link Sonde#current()}.
     */
    public static Monitor of(Pipeline pipeline) {
        return invoke(() -> (Monitor) STARTED.invokeExact(pipeline));
    }

    /** The pipeline underneath a monitor (its registry, probe runtime, buffers, raw config). */
    public static Pipeline pipeline(Monitor monitor) {
        return invoke(() -> (Pipeline) PIPELINE.invokeExact(monitor));
    }

    /** A method handle call; its checked throwables cannot occur (the targets declare none). */
    private interface Call<T> {
        T run() throws Throwable;
    }

    private static <T> T invoke(Call<T> call) {
        try {
            return call.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The resolved configuration of a monitor. */
    public static SondeConfig config(Monitor monitor) {
        return pipeline(monitor).config();
    }
}
