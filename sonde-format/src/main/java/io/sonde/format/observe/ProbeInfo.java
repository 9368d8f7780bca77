package io.sonde.format.observe;

/**
 * One method probe of the observed process as PROBE_LISTING (protocol version 3) reports it.
 *
 * @param id the probe's id in the process (what its records carry)
 * @param name {@code <binary class name>.<method name>}, what probe patterns match
 * @param signature the method's JVM descriptor, e.g. {@code (I)V}
 * @param on whether the probe records its executions now
 * @param origin who set the probe's present state
 * @param detail why, in words: for {@link Origin#SWITCHED} the switch (direction and pattern), for
 *     {@link Origin#BUDGET} the overhead budget's reason with the probe's figures; empty for
 *     {@link Origin#CONFIGURED}
 */
public record ProbeInfo(int id, String name, String signature, boolean on, Origin origin, String detail) {

    /** Who set a probe's present state; the u8 on the wire is the ordinal. */
    public enum Origin {
        /** The agent's configuration when the class was woven; nothing switched it since. */
        CONFIGURED,
        /** A switch at run time by pattern: the agent's MBean, or PROBES_ON / PROBES_OFF of an observer. */
        SWITCHED,
        /** The agent's overhead budget ({@code budget=PERCENT}) switched it off. */
        BUDGET;

        /** The origin of wire code {@code code}; an unknown code is a malformed message. */
        public static Origin ofCode(int code) {
            Origin[] all = values();
            if (code < 0 || code >= all.length) throw new MalformedMessageException("PROBE_LISTING: unknown probe state origin " + code);
            return all[code];
        }
    }

    public ProbeInfo {
        if (name == null || signature == null || origin == null || detail == null) {
            throw new IllegalArgumentException("a probe needs a name, a signature, an origin and a detail (empty when none)");
        }
    }
}
