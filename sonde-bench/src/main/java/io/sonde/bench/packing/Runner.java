package io.sonde.bench.packing;

/**
 * Runs one configuration of one source from a fresh start and measures it: the study's real runner
 * sends over TCP to a collector ({@link PackingBenchmark#measure}); tests script one to check the
 * selection and confirmation logic without timing.
 */
@FunctionalInterface
interface Runner {
    /**
     * @param packing the {@code packing} setting ({@code static:N}, {@code fill}, {@code adaptive}, ...)
     * @param warmSeconds run unmeasured for this long first
     * @param seconds then measure for this long
     */
    PackingBenchmark.Run run(Source source, String packing, double warmSeconds, double seconds) throws Exception;
}
