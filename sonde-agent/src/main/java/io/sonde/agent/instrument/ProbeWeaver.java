package io.sonde.agent.instrument;

import io.sonde.agent.pattern.MethodFilter;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves the probe into the selected methods of one class file with plain ASM (the copy inside
 * Byte Buddy): one pass of a class reader into a class writer that copies every method it does not
 * touch. This is the agent's default weaver; it replaced Byte Buddy's {@code Advice} because a
 * cold JVM interprets the weaver's own code while it weaves, and the less code runs per class the
 * sooner a library is woven (docs/benchmarks.md, "Weaving").
 *
 * <p>The woven method, with {@code E} the first local slot the method does not use:
 * <pre>
 *   try { e = Probes.enter(ID); } catch (Throwable t) { e = false; }      // slot E
 *   ... the method's own code, each xRETURN replaced by "store the value; goto EXIT" ...
 *   EXIT:  try { Probes.exit(ID, e); } catch (Throwable t) { }  return value;
 *   catch (Throwable x) over the whole original code:
 *          try { Probes.exitExceptionally(ID, e, x); } catch (Throwable t) { }  throw x;
 * </pre>
 * the same calls and the same guarantees as {@link ProbeAdvice} (a failure inside Sonde never
 * reaches the application; the exception passes through unchanged). No type is resolved, no class
 * is loaded and no frame is computed: the slot {@code E} (after every local the method uses, read
 * from its {@code Code} attribute before the visit) is appended to each stack map frame the class
 * file has, and the few frames of the added code are written directly.
 */
final class ProbeWeaver {

    private static final String PROBES = "io/sonde/core/probe/Probes";
    private static final String THROWABLE = "java/lang/Throwable";
    private static final int SKIPPED_METHODS = Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE;

    /** Assigns the probe id of a method (registers its probe). */
    interface Probes {
        int probeFor(String name, String signature);

        /**
         * False when the method's probe is to stay out of the code (the overhead budget took it
         * out, {@link ProbeCatalog#removeFromCode}, or leaves a trivial method out, {@link
         * ProbeCatalog#woven(String, int)}): the method is then copied unchanged.
         *
         * @param name the probe name {@code <class>.<method>}
         * @param codeBytes the length of the method's bytecode
         */
        default boolean weaves(String name, int codeBytes) {
            return true;
        }
    }

    private ProbeWeaver() {}

    /**
     * The woven class file, or null when no method of the class is selected (or the class is
     * synthetic, a module descriptor, or too old to carry frames and too new for ASM alike).
     *
     * @param className the binary name ({@code a.b.C$D})
     */
    static byte[] weave(byte[] classFile, String className, MethodFilter filter, Probes probes) {
        return weave(classFile, className, filter, probes, null);
    }

    /**
     * As {@link #weave(byte[], String, MethodFilter, Probes)}, with {@code loopHook} (when not
     * null) woven into the class's {@link WorkerLoops} methods, which never get a probe.
     */
    static byte[] weave(byte[] classFile, String className, MethodFilter filter, Probes probes, HookWeaver.Hook loopHook) {
        ClassReader reader = new ClassReader(classFile);
        if ((reader.getAccess() & (Opcodes.ACC_SYNTHETIC | Opcodes.ACC_MODULE)) != 0) {
            return null;
        }
        return MethodWeaving.weave(reader, (r, writer) -> new Weaving(r, writer, className, filter, probes, loopHook));
    }

    /**
     * Of each method's {@code Code} attribute, in the order of the class file: {@code max_locals}
     * (-1 for a method without code) and {@code code_length}.
     */
    record MethodCode(int[] maxLocals, int[] codeLengths) {}

    /** The {@link MethodCode} of every method: a walk over the class file's structure, no code read. */
    static MethodCode methodCode(ClassReader r) {
        char[] buf = new char[r.getMaxStringLength()];
        int p = r.header + 6;
        p += 2 + 2 * r.readUnsignedShort(p); // interfaces
        int fields = r.readUnsignedShort(p);
        p += 2;
        for (int i = 0; i < fields; i++) {
            p = skipAttributes(r, p + 6);
        }
        int methods = r.readUnsignedShort(p);
        p += 2;
        int[] result = new int[methods];
        int[] lengths = new int[methods];
        for (int i = 0; i < methods; i++) {
            result[i] = -1;
            int attributes = r.readUnsignedShort(p + 6);
            p += 8;
            for (int a = 0; a < attributes; a++) {
                int length = r.readInt(p + 2);
                if ("Code".equals(r.readUTF8(p, buf))) {
                    result[i] = r.readUnsignedShort(p + 8); // after max_stack
                    lengths[i] = r.readInt(p + 10); // after max_locals
                }
                p += 6 + length;
            }
        }
        return new MethodCode(result, lengths);
    }

    /** The locals at the method's entry, as a stack map frame lists them. */
    static Object[] initialLocals(int access, String owner, String descriptor) {
        Type[] args = Type.getArgumentTypes(descriptor);
        boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
        Object[] locals = new Object[args.length + (isStatic ? 0 : 1)];
        int i = 0;
        if (!isStatic) {
            locals[i++] = owner;
        }
        for (Type t : args) {
            locals[i++] = frameType(t);
        }
        return locals;
    }

    static Object frameType(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN: case Type.CHAR: case Type.BYTE: case Type.SHORT: case Type.INT:
                return Opcodes.INTEGER;
            case Type.FLOAT:
                return Opcodes.FLOAT;
            case Type.LONG:
                return Opcodes.LONG;
            case Type.DOUBLE:
                return Opcodes.DOUBLE;
            default:
                return t.getInternalName(); // objects and arrays ("[I", "[Ljava/lang/String;")
        }
    }

    private static int skipAttributes(ClassReader r, int p) {
        int attributes = r.readUnsignedShort(p);
        p += 2;
        for (int a = 0; a < attributes; a++) {
            p += 6 + r.readInt(p + 2);
        }
        return p;
    }

    /** The probes (and the worker loops' hook) woven into the selected methods of one class. */
    private static final class Weaving extends MethodWeaving {
        private final String className;
        private final MethodFilter filter;
        private final Probes probes;
        private final HookWeaver.Hook loopHook;

        Weaving(ClassReader reader, ClassWriter writer, String className, MethodFilter filter, Probes probes,
                HookWeaver.Hook loopHook) {
            super(reader, writer);
            this.loopHook = loopHook;
            this.className = className;
            this.filter = filter;
            this.probes = probes;
        }

        @Override
        MethodVisitor weave(MethodVisitor mv, int access, String name, String descriptor, int maxLocals, int codeLength) {
            if ((access & SKIPPED_METHODS) != 0) {
                return null;
            }
            if (WorkerLoops.isLoop(className, name)) { // never a probe; the hook, if any
                return loopHook == null ? null : HookWeaver.hooked(mv, loopHook, access, owner, descriptor, maxLocals, frames);
            }
            if (!filter.selects(className, name)) {
                return null;
            }
            String probe = className + "." + name;
            if (!probes.weaves(probe, codeLength)) {
                return null;
            }
            int id = probes.probeFor(probe, descriptor);
            return new ProbeMethod(mv, id, access, owner, descriptor, maxLocals, frames);
        }
    }

    /** Rewrites one method: enter at the start, exit at each return and for each exception leaving it. */
    private static final class ProbeMethod extends MethodVisitor {
        private final int id;
        private final boolean frames;
        private final Object[] initialLocals;
        private final SlotFrames slotFrames;
        private final int entered; // slot E
        private final Type returnType;
        private final Label enterStart = new Label();
        private final Label enterEnd = new Label();
        private final Label enterFailed = new Label();
        private final Label enterStored = new Label();
        private final Label codeStart = new Label();
        private final Label codeEnd = new Label();
        private final Label thrown = new Label();
        private final Label exit = new Label();
        private final Label exitStart = new Label();
        private final Label exitEnd = new Label();
        private final Label exitFailed = new Label();
        private final Label ret = new Label();
        private final Label thrownStart = new Label();
        private final Label thrownEnd = new Label();
        private final Label thrownFailed = new Label();
        private final Label rethrow = new Label();
        private boolean started;

        ProbeMethod(MethodVisitor mv, int id, int access, String owner, String descriptor, int maxLocals, boolean frames) {
            super(Opcodes.ASM9, mv);
            this.id = id;
            this.frames = frames;
            this.entered = maxLocals;
            this.returnType = Type.getReturnType(descriptor);
            this.initialLocals = initialLocals(access, owner, descriptor);
            this.slotFrames = new SlotFrames(initialLocals, entered, Opcodes.INTEGER);
        }

        /** Before the method's first instruction (after the reader has declared its own handlers). */
        private void start() {
            if (started) {
                return;
            }
            started = true;
            // Ours come after the method's own handlers: the table is searched in order, and the
            // catch-all must only see what the method's own code does not catch.
            super.visitTryCatchBlock(enterStart, enterEnd, enterFailed, THROWABLE);
            super.visitTryCatchBlock(codeStart, codeEnd, thrown, THROWABLE);
            super.visitTryCatchBlock(exitStart, exitEnd, exitFailed, THROWABLE);
            super.visitTryCatchBlock(thrownStart, thrownEnd, thrownFailed, THROWABLE);
            super.visitLabel(enterStart);
            pushId();
            super.visitMethodInsn(Opcodes.INVOKESTATIC, PROBES, "enter", "(I)Z", false);
            super.visitLabel(enterEnd);
            super.visitJumpInsn(Opcodes.GOTO, enterStored);
            super.visitLabel(enterFailed);
            frame(initialLocals, THROWABLE);
            super.visitInsn(Opcodes.POP);
            super.visitInsn(Opcodes.ICONST_0);
            super.visitLabel(enterStored);
            frame(initialLocals, Opcodes.INTEGER);
            super.visitVarInsn(Opcodes.ISTORE, entered);
            super.visitLabel(codeStart);
        }

        private void pushId() {
            if (id <= Short.MAX_VALUE) {
                super.visitIntInsn(id <= Byte.MAX_VALUE ? Opcodes.BIPUSH : Opcodes.SIPUSH, id);
            } else {
                super.visitLdcInsn(id);
            }
        }

        /** A frame of the added code: the given locals, the given single stack entry (or none). */
        private void frame(Object[] locals, Object stack) {
            if (frames) {
                slotFrames.added(mv, locals, stack);
            }
        }

        /** TOP up to slot E, then E's int, then {@code more} (the return value or the exception). */
        private Object[] exitLocals(Object more) {
            Object[] locals = new Object[entered + 1 + (more == null ? 0 : 1)];
            java.util.Arrays.fill(locals, 0, entered, Opcodes.TOP);
            locals[entered] = Opcodes.INTEGER;
            if (more != null) {
                locals[entered + 1] = more;
            }
            return locals;
        }

        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
            start();
            if (frames) {
                slotFrames.original(mv, type, numLocal, local, numStack, stack); // slot E's int added
            }
        }

        @Override
        public void visitLabel(Label label) {
            start();
            super.visitLabel(label);
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            start();
            super.visitLineNumber(line, start);
        }

        @Override
        public void visitInsn(int opcode) {
            start();
            if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                if (opcode != Opcodes.RETURN) {
                    super.visitVarInsn(returnType.getOpcode(Opcodes.ISTORE), entered + 1);
                }
                super.visitJumpInsn(Opcodes.GOTO, exit);
                return;
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            start();
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitVarInsn(int opcode, int varIndex) {
            start();
            super.visitVarInsn(opcode, varIndex);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            start();
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            start();
            super.visitFieldInsn(opcode, owner, name, descriptor);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            start();
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, net.bytebuddy.jar.asm.Handle bootstrap,
                Object... arguments) {
            start();
            super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            start();
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitLdcInsn(Object value) {
            start();
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int varIndex, int increment) {
            start();
            super.visitIincInsn(varIndex, increment);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            start();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            start();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
            start();
            super.visitMultiANewArrayInsn(descriptor, numDimensions);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            start();
            super.visitLabel(codeEnd);
            boolean isVoid = returnType.getSort() == Type.VOID;
            Object[] atExit = exitLocals(isVoid ? null : frameType(returnType));

            // the normal exit: every return of the method jumps here with its value in slot E+1
            super.visitLabel(exit);
            frame(atExit, null);
            super.visitLabel(exitStart);
            pushId();
            super.visitVarInsn(Opcodes.ILOAD, entered);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, PROBES, "exit", "(IZ)V", false);
            super.visitLabel(exitEnd);
            super.visitJumpInsn(Opcodes.GOTO, ret);
            super.visitLabel(exitFailed);
            frame(atExit, THROWABLE);
            super.visitInsn(Opcodes.POP);
            super.visitLabel(ret);
            frame(atExit, null);
            if (!isVoid) {
                super.visitVarInsn(returnType.getOpcode(Opcodes.ILOAD), entered + 1);
            }
            super.visitInsn(returnType.getOpcode(Opcodes.IRETURN));

            // an exception leaving the method: recorded, then thrown on unchanged
            Object[] atThrow = exitLocals(THROWABLE);
            super.visitLabel(thrown);
            frame(exitLocals(null), THROWABLE);
            super.visitVarInsn(Opcodes.ASTORE, entered + 1);
            super.visitLabel(thrownStart);
            pushId();
            super.visitVarInsn(Opcodes.ILOAD, entered);
            super.visitVarInsn(Opcodes.ALOAD, entered + 1);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, PROBES, "exitExceptionally", "(IZL" + THROWABLE + ";)V", false);
            super.visitLabel(thrownEnd);
            super.visitJumpInsn(Opcodes.GOTO, rethrow);
            super.visitLabel(thrownFailed);
            frame(atThrow, THROWABLE);
            super.visitInsn(Opcodes.POP);
            super.visitLabel(rethrow);
            frame(atThrow, null);
            super.visitVarInsn(Opcodes.ALOAD, entered + 1);
            super.visitInsn(Opcodes.ATHROW);

            super.visitMaxs(Math.max(maxStack, 3), entered + 1 + Math.max(1, returnType.getSize()));
        }
    }
}
