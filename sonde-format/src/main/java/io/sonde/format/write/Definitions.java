package io.sonde.format.write;

import io.sonde.format.Format;
import io.sonde.format.RecordLayout.EventDef;
import io.sonde.format.RecordLayout.ProbeDef;
import io.sonde.format.RecordLayout.Str;
import io.sonde.format.RecordLayout.StringDef;
import io.sonde.format.RecordLayout.ThreadDef;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Encoders of the definition records of the registry block (PROBE_DEF, STRING_DEF, THREAD_DEF,
 * EVENT_DEF). Definitions are made on the slow path, so these return fresh arrays.
 * Strings longer than 65535 bytes of UTF-8 are rejected.
 */
public final class Definitions {
    private Definitions() {}

    public static byte[] probeDef(int probeId, String name, String signature) {
        byte[] n = utf8(name, "probe name");
        byte[] s = utf8(signature, "probe signature");
        ByteBuffer b = alloc(ProbeDef.FIXED_LENGTH + Str.BYTES + n.length + Str.BYTES + s.length);
        b.put(Format.PROBE_DEF).putInt(probeId);
        putStr(b, n);
        putStr(b, s);
        return b.array();
    }

    public static byte[] stringDef(int stringId, String value) {
        byte[] v = utf8(value, "string value");
        ByteBuffer b = alloc(StringDef.FIXED_LENGTH + Str.BYTES + v.length);
        b.put(Format.STRING_DEF).putInt(stringId);
        putStr(b, v);
        return b.array();
    }

    public static byte[] threadDef(long threadId, String threadName) {
        byte[] n = utf8(threadName, "thread name");
        ByteBuffer b = alloc(ThreadDef.FIXED_LENGTH + Str.BYTES + n.length);
        b.put(Format.THREAD_DEF).putLong(threadId);
        putStr(b, n);
        return b.array();
    }

    /** @param fieldTypes Format.FIELD_* codes, at most 255 */
    public static byte[] eventDef(int eventTypeId, String name, byte[] fieldTypes, String[] fieldNames) {
        if (fieldTypes.length != fieldNames.length || fieldTypes.length > EventDef.MAX_FIELDS) {
            throw new IllegalArgumentException("event type " + name + ": " + fieldTypes.length
                    + " field types, " + fieldNames.length + " names (at most 255, equal counts)");
        }
        byte[] n = utf8(name, "event type name");
        byte[][] fn = new byte[fieldNames.length][];
        int size = EventDef.FIXED_LENGTH + Str.BYTES + n.length + EventDef.FIELD_COUNT_LENGTH;
        for (int i = 0; i < fn.length; i++) {
            fn[i] = utf8(fieldNames[i], "event field name");
            size += EventDef.FIELD_TYPE_LENGTH + Str.BYTES + fn[i].length;
        }
        ByteBuffer b = alloc(size);
        b.put(Format.EVENT_DEF).putInt(eventTypeId);
        putStr(b, n);
        b.put((byte) fieldTypes.length);
        for (int i = 0; i < fn.length; i++) {
            b.put(fieldTypes[i]);
            putStr(b, fn[i]);
        }
        return b.array();
    }

    private static ByteBuffer alloc(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void putStr(ByteBuffer b, byte[] s) {
        b.putShort((short) s.length);
        b.put(s);
    }

    private static byte[] utf8(String s, String what) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > Str.MAX_BYTES) {
            throw new IllegalArgumentException(what + " is " + b.length + " bytes of UTF-8; at most 65535 allowed");
        }
        return b;
    }
}
