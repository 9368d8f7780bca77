package io.sonde.format.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Test-side, byte-level encoder of the records of one block, written straight from
 * docs/format.md and deliberately independent of the production encoders in
 * {@code io.sonde.format.write}: golden files are only worth something if two separate
 * implementations agree on the bytes.
 */
public final class RecordBytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    // ---- definition records (registry block)
    public RecordBytes probeDef(int probeId, String name, String signature) {
        u8(0x81).u32(probeId).str(name).str(signature);
        return this;
    }

    public RecordBytes stringDef(int stringId, String value) {
        u8(0x82).u32(stringId).str(value);
        return this;
    }

    public RecordBytes threadDef(long threadId, String name) {
        u8(0x83).u64(threadId).str(name);
        return this;
    }

    /** fields: alternating field type (Integer/Byte) and field name (String). */
    public RecordBytes eventDef(int eventTypeId, String name, Object... fields) {
        u8(0x84).u32(eventTypeId).str(name).u8(fields.length / 2);
        for (int i = 0; i < fields.length; i += 2) {
            u8(((Number) fields[i]).intValue()).str((String) fields[i + 1]);
        }
        return this;
    }

    // ---- thread records
    public RecordBytes enter(int probeId, long time) {
        u8(0x01).u32(probeId).u64(time);
        return this;
    }

    public RecordBytes exit(int probeId, long time) {
        u8(0x02).u32(probeId).u64(time);
        return this;
    }

    public RecordBytes exitException(int probeId, long time, int exceptionStringId) {
        u8(0x03).u32(probeId).u64(time).u32(exceptionStringId);
        return this;
    }

    public RecordBytes enterCpu(int probeId, long time, long cpu) {
        u8(0x04).u32(probeId).u64(time).u64(cpu);
        return this;
    }

    public RecordBytes exitCpu(int probeId, long time, long cpu) {
        u8(0x05).u32(probeId).u64(time).u64(cpu);
        return this;
    }

    public RecordBytes exitExceptionCpu(int probeId, long time, long cpu, int exceptionStringId) {
        u8(0x06).u32(probeId).u64(time).u64(cpu).u32(exceptionStringId);
        return this;
    }

    /**
     * An EVENT record; values are encoded by their Java type: Boolean (1 byte), Integer (i32),
     * Long (i64), Double (binary64), and {@link StringRef} (u32 string id).
     */
    public RecordBytes event(int eventTypeId, long time, Object... values) {
        u8(0x07).u32(eventTypeId).u64(time);
        for (Object v : values) {
            if (v instanceof Boolean) {
                u8((Boolean) v ? 1 : 0);
            } else if (v instanceof Integer) {
                u32((Integer) v);
            } else if (v instanceof Long) {
                u64((Long) v);
            } else if (v instanceof Double) {
                u64(Double.doubleToRawLongBits((Double) v));
            } else if (v instanceof StringRef) {
                u32(((StringRef) v).id);
            } else {
                throw new IllegalArgumentException("no field encoding for " + v);
            }
        }
        return this;
    }

    public RecordBytes traceStart(long traceId, long parentTraceId, int parentOrderIndex) {
        u8(0x08).u64(traceId).u64(parentTraceId).u32(parentOrderIndex);
        return this;
    }

    /** HANDOFF_START (format 2.0). */
    public RecordBytes handoffStart(long traceId, long parentTraceId, int parentOrderIndex, long handoffTime) {
        u8(0x0A).u64(traceId).u64(parentTraceId).u32(parentOrderIndex).u64(handoffTime);
        return this;
    }

    public RecordBytes gap(int dropped) {
        u8(0x09).u32(dropped);
        return this;
    }

    /** Raw bytes, for tests that need malformed records. */
    public RecordBytes raw(byte... bytes) {
        out.write(bytes, 0, bytes.length);
        return this;
    }

    /** Raw byte values given as ints (each masked to 8 bits). */
    public RecordBytes bytes(int... values) {
        for (int v : values) {
            out.write(v & 0xFF);
        }
        return this;
    }

    public byte[] toBytes() {
        return out.toByteArray();
    }

    /** A string-typed event field value: the id of a STRING_DEF. */
    public static StringRef str(int id) {
        return new StringRef(id);
    }

    /** A string id as an event field value. */
    public static final class StringRef {
        final int id;

        StringRef(int id) {
            this.id = id;
        }
    }

    // ---- little-endian primitives
    RecordBytes u8(int v) {
        out.write(v & 0xFF);
        return this;
    }

    RecordBytes u16(int v) {
        out.write(v & 0xFF);
        out.write((v >>> 8) & 0xFF);
        return this;
    }

    RecordBytes u32(int v) {
        for (int i = 0; i < 4; i++) {
            out.write((v >>> (8 * i)) & 0xFF);
        }
        return this;
    }

    RecordBytes u64(long v) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (v >>> (8 * i)) & 0xFF);
        }
        return this;
    }

    RecordBytes str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        u16(b.length);
        out.write(b, 0, b.length);
        return this;
    }
}
