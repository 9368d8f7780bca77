package io.sonde.format.observe;

import java.util.List;

/**
 * A PROBE_LISTING answer (protocol version 3): one page of the method probes matching a pattern.
 *
 * @param total how many probes match in all
 * @param offset the position of the first probe of this page among the matches (from 0)
 * @param probes this page, in the order the agent wove the probes
 */
public record ProbeListing(int total, int offset, List<ProbeInfo> probes) {
    public ProbeListing {
        probes = List.copyOf(probes);
        if (total < 0 || offset < 0 || (!probes.isEmpty() && (long) offset + probes.size() > total)) {
            throw new IllegalArgumentException("a page of " + probes.size() + " probes from offset " + offset + " does not fit in "
                    + total + " matches");
        }
    }

    /** True when matches follow this page: ask again from {@link #nextOffset()}. */
    public boolean truncated() {
        return (long) offset + probes.size() < total;
    }

    /** The offset of the page after this one. */
    public int nextOffset() {
        return offset + probes.size();
    }
}
