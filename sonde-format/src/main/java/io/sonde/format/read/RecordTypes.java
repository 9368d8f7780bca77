package io.sonde.format.read;

import io.sonde.format.Format;

/** Names of record types, for messages and text output. */
public final class RecordTypes {
    private RecordTypes() {}

    /** e.g. "ENTER", "EXIT_EXCEPTION_CPU", "PROBE_DEF"; "0x4f" for unknown types. */
    public static String name(byte type) {
        switch (type) {
            case Format.ENTER:
                return "ENTER";
            case Format.EXIT:
                return "EXIT";
            case Format.EXIT_EXCEPTION:
                return "EXIT_EXCEPTION";
            case Format.ENTER_CPU:
                return "ENTER_CPU";
            case Format.EXIT_CPU:
                return "EXIT_CPU";
            case Format.EXIT_EXCEPTION_CPU:
                return "EXIT_EXCEPTION_CPU";
            case Format.EVENT:
                return "EVENT";
            case Format.TRACE_START:
                return "TRACE_START";
            case Format.GAP:
                return "GAP";
            case Format.HANDOFF_START:
                return "HANDOFF_START";
            case Format.PROBE_DEF:
                return "PROBE_DEF";
            case Format.STRING_DEF:
                return "STRING_DEF";
            case Format.THREAD_DEF:
                return "THREAD_DEF";
            case Format.EVENT_DEF:
                return "EVENT_DEF";
            default:
                return String.format("0x%02x", type & 0xFF);
        }
    }
}
