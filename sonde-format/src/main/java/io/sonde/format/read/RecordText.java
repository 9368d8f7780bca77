package io.sonde.format.read;

import io.sonde.format.Format;
import java.time.Instant;

/**
 * The text form of records and frame headers, one line each, with ids resolved to names: what
 * {@code sonde dump} prints and what the core's text writer writes. For people, not a stable
 * format to parse.
 */
public final class RecordText {
    private RecordText() {}

    /**
     * The record a cursor is on, e.g. {@code thread 1 "main" ENTER com.example.Shop.checkout(I)V
     * time=5000100000}: its thread, type, then its fields.
     */
    public static String record(RecordView r) {
        StringBuilder s = new StringBuilder();
        long thread = r.threadId();
        if (thread == Format.REGISTRY_THREAD_ID) {
            s.append("registry");
        } else {
            s.append("thread ").append(thread);
            String name = r.threadName();
            if (name != null) {
                s.append(" \"").append(name).append('"');
            }
        }
        byte type = r.type();
        boolean handoff = type == Format.TRACE_START && r.hasHandoffTime();
        s.append(' ').append(RecordTypes.name(handoff ? Format.HANDOFF_START : type));
        switch (type) {
            case Format.TRACE_START:
                s.append(" trace=0x").append(Long.toHexString(r.traceId()));
                if (r.parentTraceId() != 0) {
                    s.append(" parent=0x").append(Long.toHexString(r.parentTraceId())).append(" parent-order=").append(r.parentOrderIndex());
                }
                if (handoff) {
                    s.append(" handoff-time=").append(r.handoffTime());
                }
                break;
            case Format.GAP:
                s.append(" dropped=").append(r.gapCount());
                break;
            case Format.EVENT: {
                EventType et = r.eventType();
                s.append(' ').append(et.name()).append(" time=").append(r.time());
                for (int i = 0; i < et.fieldCount(); i++) {
                    s.append(' ').append(et.fieldName(i)).append('=').append(r.fieldValue(i));
                }
                break;
            }
            case Format.PROBE_DEF:
                s.append(' ').append(r.probeId()).append(' ').append(r.probeName()).append(r.probeSignature());
                break;
            case Format.STRING_DEF:
            case Format.THREAD_DEF:
                s.append(' ').append(r.definedId()).append(" \"").append(r.definedName()).append('"');
                break;
            case Format.EVENT_DEF:
                s.append(' ').append(r.eventTypeId()).append(' ').append(r.eventType());
                break;
            default:
                s.append(' ').append(r.probeName()).append(r.probeSignature()).append(" time=").append(r.time());
                if (r.hasCpuTime()) {
                    s.append(" cpu=").append(r.cpuTime());
                }
                if (r.isExceptionExit()) {
                    s.append(" exception=").append(r.exceptionClass());
                }
        }
        return s.toString();
    }

    /** A frame header: sequence, agent, host, pid, both clocks, size (as stored; COMPRESSED frames say so) and place. */
    public static String frame(FrameHeader f, String source) {
        return "frame seq " + f.sequence() + " agent " + f.agentId() + " host " + f.host() + " pid " + f.pid()
                + " wall " + Instant.ofEpochSecond(0, f.wallNanos()) + " mono " + f.monoNanos()
                + " (" + f.length() + " bytes" + (f.type() == Format.FRAME_COMPRESSED ? ", LZ4-compressed," : "")
                + " at offset " + f.offset() + " of " + source + ")";
    }

    /** A trailer's counters, with a warning when they do not balance. */
    public static String trailer(Trailer t) {
        return "trailer: " + t + (t.balanced() ? "" : " (does not balance: produced != written + dropped)");
    }
}
