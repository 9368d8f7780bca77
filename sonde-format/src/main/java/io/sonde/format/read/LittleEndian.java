package io.sonde.format.read;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian loads from byte arrays (plain VarHandle views: one bounds check, no shifting). */
final class LittleEndian {
    private LittleEndian() {}

    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static int u8(byte[] b, int off) {
        return b[off] & 0xFF;
    }

    static int u16(byte[] b, int off) {
        return ((short) I16.get(b, off)) & 0xFFFF;
    }

    static int i32(byte[] b, int off) {
        return (int) I32.get(b, off);
    }

    /** An unsigned 32-bit value widened to long. */
    static long u32(byte[] b, int off) {
        return ((int) I32.get(b, off)) & 0xFFFF_FFFFL;
    }

    static long i64(byte[] b, int off) {
        return (long) I64.get(b, off);
    }
}
