package io.sonde.bench.overhead.framework;

/**
 * How many monitoring records of the benchmarked method a framework actually wrote in one run,
 * counted from its output; or null with the reason why it cannot be counted.
 *
 * @param written records counted, or null
 * @param reason  why {@code written} is null (or a remark about how it was counted), or null
 */
public record RecordCount(Long written, String reason) {

    /** A count read from the framework's output. */
    public static RecordCount of(long written) {
        return new RecordCount(written, null);
    }

    /** No count possible, for the given reason. */
    public static RecordCount unknown(String reason) {
        return new RecordCount(null, reason);
    }
}
