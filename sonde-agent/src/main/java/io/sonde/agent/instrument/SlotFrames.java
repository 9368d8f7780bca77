package io.sonde.agent.instrument;

import java.util.Arrays;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The stack map frames of one woven method whose class file is read with compressed frames (no
 * {@code EXPAND_FRAMES}): the class file's own frames get one more local, the woven code's slot
 * {@code E} (after every local the method uses), and the woven code's own frames are written
 * whole. The frames go out in compressed form ({@code F_FULL}, {@code F_SAME}, {@code F_SAME1}),
 * so the class writer writes them as given: no frame is expanded by the reader nor compared and
 * compressed again by the writer, which was a third of the weaver's time per class on a cold JVM
 * (docs/benchmarks.md, "Attach").
 *
 * <p>A frame of the class file that keeps the locals of the frame before it ({@code F_SAME},
 * {@code F_SAME1}) is passed on as it is when the frame written before it was also one of the
 * class file's (so it already had slot {@code E}); the others ({@code F_APPEND}, {@code F_CHOP},
 * {@code F_FULL}, or the first frame after the woven code's entry) are written as {@code F_FULL}
 * from the locals tracked here. The woven code's frames come before the class file's first frame
 * and after its last, never between.
 */
final class SlotFrames {

    private final int slot;
    private final Object slotType;
    /** The class file's current locals, one entry per verification type (a long or double is one entry). */
    private Object[] locals;
    private int count;
    private boolean previousHasSlot;

    /**
     * @param initialLocals the locals at the method's entry ({@link ProbeWeaver#initialLocals})
     * @param slot the added local's slot {@code E}
     * @param slotType its verification type ({@link Opcodes#INTEGER}, an internal name)
     */
    SlotFrames(Object[] initialLocals, int slot, Object slotType) {
        this.slot = slot;
        this.slotType = slotType;
        this.locals = Arrays.copyOf(initialLocals, Math.max(8, initialLocals.length + 4));
        this.count = initialLocals.length;
    }

    /** A frame of the class file (compressed, as the reader gives it): passed on with slot {@code E} added. */
    void original(MethodVisitor out, int type, int numLocal, Object[] local, int numStack, Object[] stack) {
        switch (type) {
            case Opcodes.F_SAME:
            case Opcodes.F_SAME1:
                if (previousHasSlot) {
                    out.visitFrame(type, numLocal, local, numStack, stack);
                    return;
                }
                break;
            case Opcodes.F_APPEND:
                ensure(count + numLocal);
                System.arraycopy(local, 0, locals, count, numLocal);
                count += numLocal;
                break;
            case Opcodes.F_CHOP:
                count = Math.max(0, count - numLocal);
                break;
            default: // F_FULL (F_NEW: a reader that expands; the same list)
                ensure(numLocal);
                System.arraycopy(local, 0, locals, 0, numLocal);
                count = numLocal;
                break;
        }
        int slots = 0;
        for (int i = 0; i < count; i++) {
            slots += locals[i] == Opcodes.LONG || locals[i] == Opcodes.DOUBLE ? 2 : 1;
        }
        Object[] full = new Object[count + (slot - slots) + 1];
        System.arraycopy(locals, 0, full, 0, count);
        Arrays.fill(full, count, full.length - 1, Opcodes.TOP);
        full[full.length - 1] = slotType;
        out.visitFrame(Opcodes.F_FULL, full.length, full, numStack, stack);
        previousHasSlot = true;
    }

    /** A frame of the woven code: these locals and this one stack entry (or none), written whole. */
    void added(MethodVisitor out, Object[] frameLocals, Object stack) {
        writeFull(out, frameLocals, stack);
        previousHasSlot = false;
    }

    /** A whole frame ({@code F_FULL}) of these locals and this one stack entry, or none. */
    static void writeFull(MethodVisitor out, Object[] frameLocals, Object stack) {
        out.visitFrame(Opcodes.F_FULL, frameLocals.length, frameLocals, stack == null ? 0 : 1,
                stack == null ? null : new Object[] {stack});
    }

    private void ensure(int size) {
        if (size > locals.length) {
            locals = Arrays.copyOf(locals, Math.max(size, 2 * locals.length));
        }
    }
}
