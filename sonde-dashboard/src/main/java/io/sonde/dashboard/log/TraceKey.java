package io.sonde.dashboard.log;

/** The dashboard's spelling of a request id, {@code <agent index>-<trace id in hex>}, and its parser. */
public final class TraceKey {
    private TraceKey() {}

    public static String of(int agent, long traceId) {
        return agent + "-" + Long.toHexString(traceId);
    }

    /**
     * Parses an id made by {@link #of}.
     *
     * @return {agent, trace id}
     * @throws IllegalArgumentException naming the id and what is wrong with it
     */
    public static long[] parse(String id) {
        int dash = id.indexOf('-');
        if (dash <= 0 || dash == id.length() - 1) {
            throw new IllegalArgumentException("trace id '" + id + "' is not <agent>-<hex trace id>, e.g. 0-100000001");
        }
        try {
            long agent = Integer.parseInt(id.substring(0, dash));
            long trace = Long.parseUnsignedLong(id.substring(dash + 1), 16);
            if (agent < 0) throw new NumberFormatException();
            return new long[] {agent, trace};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("trace id '" + id + "' is not <agent>-<hex trace id>, e.g. 0-100000001");
        }
    }
}
