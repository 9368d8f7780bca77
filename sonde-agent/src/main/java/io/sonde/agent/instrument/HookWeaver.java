package io.sonde.agent.instrument;

import java.util.List;
import java.util.function.Predicate;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves calls of static hook methods into chosen methods of a class file with plain ASM: the
 * agent's own plumbing (trace propagation at the JDK's hand-off points and at worker loops), not
 * probes ({@link ProbeWeaver} weaves those). A hook calls a static method at the method's entry
 * with some of its arguments, and may replace one argument with what the call returns, or keep
 * the result as a token that a second static method gets at every exit, normal or by an
 * exception. Every call is guarded: whatever it throws is dropped, so the agent never breaks the
 * method it hooks (a failed entry call leaves the argument as it was and the token null).
 *
 * <p>As {@link ProbeWeaver}: one pass, no type resolved, no class loaded, no frame computed; the
 * token's slot {@code E} (after every local the method uses) is appended to the class file's own
 * frames and the frames of the added code are written directly. This is what lets an attach weave
 * the worker loops and the JDK's hand-off points without starting Byte Buddy.
 */
public final class HookWeaver {

    private static final String THROWABLE = "java/lang/Throwable";
    private static final String OBJECT = "java/lang/Object";

    /**
     * One hook.
     *
     * @param method the name of the hooked methods
     * @param descriptor which of them (by their descriptor)
     * @param owner internal name of the class of the hook methods
     * @param enter the static method called at entry
     * @param enterDescriptor its descriptor
     * @param arguments what it is passed, in order: the index of a parameter of the hooked
     *     method, or {@link #THIS}
     * @param replaced the parameter set to what {@code enter} returns (cast to the parameter's
     *     type), or -1
     * @param exit the static method of {@code owner} called with {@code enter}'s result at every
     *     exit ({@code (Ljava/lang/Object;)V}), or null
     */
    public record Hook(String method, Predicate<String> descriptor, String owner, String enter, String enterDescriptor,
            int[] arguments, int replaced, String exit) {

        /** In {@link #arguments}: the hooked method's receiver. */
        public static final int THIS = -1;

        /** A hook calling {@code owner.enter} at the entry of {@code method}; its result is dropped. */
        public static Hook call(String method, Predicate<String> descriptor, String owner, String enter,
                String enterDescriptor, int... arguments) {
            return new Hook(method, descriptor, owner, enter, enterDescriptor, arguments, -1, null);
        }

        /** This hook, setting parameter {@code parameter} to the entry call's result. */
        public Hook replacing(int parameter) {
            return new Hook(method, descriptor, owner, enter, enterDescriptor, arguments, parameter, exit);
        }

        /** This hook, passing the entry call's result to {@code owner.exit(Object)} at every exit. */
        public Hook endingWith(String exitMethod) {
            return new Hook(method, descriptor, owner, enter, enterDescriptor, arguments, replaced, exitMethod);
        }

        boolean matches(String name, String desc) {
            return method.equals(name) && descriptor.test(desc);
        }
    }

    private HookWeaver() {}

    /**
     * The class file with the hooks woven into every method (with code, not a constructor) that
     * one of them matches, the first matching hook per method; null when none matches.
     */
    public static byte[] weave(byte[] classFile, List<Hook> hooks) {
        return MethodWeaving.weave(new ClassReader(classFile), (reader, writer) -> new MethodWeaving(reader, writer) {
            @Override
            MethodVisitor weave(MethodVisitor mv, int access, String name, String descriptor, int maxLocals, int codeLength) {
                for (Hook hook : hooks) {
                    if (hook.matches(name, descriptor)) {
                        return new HookMethod(mv, hook, access, owner, descriptor, maxLocals, frames);
                    }
                }
                return null;
            }
        });
    }

    /**
     * Wraps a method visitor (of a method with code) so that {@code hook} is woven into the
     * method: for {@link ProbeWeaver}, whose worker loops get a hook instead of a probe.
     */
    static MethodVisitor hooked(MethodVisitor mv, Hook hook, int access, String owner, String descriptor,
            int maxLocals, boolean frames) {
        return new HookMethod(mv, hook, access, owner, descriptor, maxLocals, frames);
    }

    /**
     * One hooked method. The entry call goes in at {@code visitCode}; the exit's catch-all is
     * declared at {@code visitMaxs}, after the method's own handlers, so it only sees what the
     * method's own code does not catch (the table is searched in order).
     */
    private static final class HookMethod extends MethodVisitor {
        private final Hook hook;
        private final boolean frames;
        private final boolean isStatic;
        private final Type[] parameters;
        private final Object[] initialLocals;
        private final SlotFrames slotFrames; // with an exit call: slot E added to the class file's frames
        private final int token; // slot E, with an exit call
        private final Type returnType;
        private final Label codeStart = new Label();
        private final Label exit = new Label();

        HookMethod(MethodVisitor mv, Hook hook, int access, String owner, String descriptor, int maxLocals, boolean frames) {
            super(Opcodes.ASM9, mv);
            this.hook = hook;
            this.frames = frames;
            this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
            this.parameters = Type.getArgumentTypes(descriptor);
            this.returnType = Type.getReturnType(descriptor);
            this.token = maxLocals;
            this.initialLocals = ProbeWeaver.initialLocals(access, owner, descriptor);
            this.slotFrames = hook.exit() == null ? null : new SlotFrames(initialLocals, token, OBJECT);
        }

        private int slot(int parameter) {
            int slot = isStatic ? 0 : 1;
            for (int i = 0; i < parameter; i++) {
                slot += parameters[i].getSize();
            }
            return slot;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            Label start = new Label();
            Label end = new Label();
            Label failed = new Label();
            Label done = new Label();
            super.visitTryCatchBlock(start, end, failed, THROWABLE);
            super.visitLabel(start);
            for (int a : hook.arguments()) {
                if (a == Hook.THIS) {
                    super.visitVarInsn(Opcodes.ALOAD, 0);
                } else {
                    super.visitVarInsn(parameters[a].getOpcode(Opcodes.ILOAD), slot(a));
                }
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, hook.owner(), hook.enter(), hook.enterDescriptor(), false);
            Type result = Type.getReturnType(hook.enterDescriptor());
            if (hook.replaced() >= 0) {
                Type target = parameters[hook.replaced()];
                if (!target.getDescriptor().equals(result.getDescriptor())) {
                    super.visitTypeInsn(Opcodes.CHECKCAST, target.getInternalName());
                }
                super.visitVarInsn(target.getOpcode(Opcodes.ISTORE), slot(hook.replaced()));
            } else if (hook.exit() != null) {
                super.visitVarInsn(Opcodes.ASTORE, token);
            } else if (result.getSize() > 0) {
                super.visitInsn(result.getSize() == 2 ? Opcodes.POP2 : Opcodes.POP);
            }
            super.visitLabel(end);
            super.visitJumpInsn(Opcodes.GOTO, done);
            super.visitLabel(failed);
            frame(initialLocals, THROWABLE);
            super.visitInsn(Opcodes.POP);
            if (hook.exit() != null) {
                super.visitInsn(Opcodes.ACONST_NULL);
                super.visitVarInsn(Opcodes.ASTORE, token);
            }
            super.visitLabel(done);
            frame(hook.exit() == null ? initialLocals : withToken(), null);
            // an instruction between this frame and one the class file may have at its first instruction
            super.visitInsn(Opcodes.NOP);
            super.visitLabel(codeStart);
        }

        /** The entry's locals, TOP up to slot E, E's token. */
        private Object[] withToken() {
            int slots = 0;
            for (Object l : initialLocals) {
                slots += l == Opcodes.LONG || l == Opcodes.DOUBLE ? 2 : 1;
            }
            Object[] locals = java.util.Arrays.copyOf(initialLocals, initialLocals.length + (token - slots) + 1);
            java.util.Arrays.fill(locals, initialLocals.length, locals.length - 1, Opcodes.TOP);
            locals[locals.length - 1] = OBJECT;
            return locals;
        }

        /** TOP up to slot E, E's token, then {@code more} (the return value or the exception). */
        private Object[] exitLocals(Object more) {
            Object[] locals = new Object[token + 1 + (more == null ? 0 : 1)];
            java.util.Arrays.fill(locals, 0, token, Opcodes.TOP);
            locals[token] = OBJECT;
            if (more != null) {
                locals[token + 1] = more;
            }
            return locals;
        }

        private void frame(Object[] locals, Object stack) {
            if (!frames) {
                return;
            }
            if (slotFrames == null) {
                SlotFrames.writeFull(mv, locals, stack);
            } else {
                slotFrames.added(mv, locals, stack);
            }
        }

        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
            if (!frames) {
                return;
            }
            if (slotFrames == null) { // no slot E: the class file's frames as they are
                super.visitFrame(type, numLocal, local, numStack, stack);
            } else {
                slotFrames.original(mv, type, numLocal, local, numStack, stack); // E's token added
            }
        }

        @Override
        public void visitInsn(int opcode) {
            if (hook.exit() != null && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                if (opcode != Opcodes.RETURN) {
                    super.visitVarInsn(returnType.getOpcode(Opcodes.ISTORE), token + 1);
                }
                super.visitJumpInsn(Opcodes.GOTO, exit);
                return;
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            int entryStack = 1 + 2 * hook.arguments().length; // the arguments (two words at most each), or the exception
            if (hook.exit() == null) {
                super.visitMaxs(Math.max(maxStack, entryStack), maxLocals);
                return;
            }
            Label codeEnd = new Label();
            Label thrown = new Label();
            super.visitLabel(codeEnd);
            super.visitTryCatchBlock(codeStart, codeEnd, thrown, THROWABLE);
            boolean isVoid = returnType.getSort() == Type.VOID;
            Object[] atExit = exitLocals(isVoid ? null : ProbeWeaver.frameType(returnType));

            // the normal exit: every return of the method jumps here with its value in slot E+1
            super.visitLabel(exit);
            frame(atExit, null);
            callExit(atExit);
            if (!isVoid) {
                super.visitVarInsn(returnType.getOpcode(Opcodes.ILOAD), token + 1);
            }
            super.visitInsn(returnType.getOpcode(Opcodes.IRETURN));

            // an exception leaving the method: the exit call, then thrown on unchanged
            Object[] atThrow = exitLocals(THROWABLE);
            super.visitLabel(thrown);
            frame(exitLocals(null), THROWABLE);
            super.visitVarInsn(Opcodes.ASTORE, token + 1);
            callExit(atThrow);
            super.visitVarInsn(Opcodes.ALOAD, token + 1);
            super.visitInsn(Opcodes.ATHROW);

            super.visitMaxs(Math.max(maxStack, Math.max(entryStack, 2)), token + 1 + Math.max(1, returnType.getSize()));
        }

        /** {@code try { owner.exit(token); } catch (Throwable t) { }}, ending with the frame {@code locals}. */
        private void callExit(Object[] locals) {
            Label start = new Label();
            Label end = new Label();
            Label failed = new Label();
            Label done = new Label();
            super.visitTryCatchBlock(start, end, failed, THROWABLE);
            super.visitLabel(start);
            super.visitVarInsn(Opcodes.ALOAD, token);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, hook.owner(), hook.exit(), "(L" + OBJECT + ";)V", false);
            super.visitLabel(end);
            super.visitJumpInsn(Opcodes.GOTO, done);
            super.visitLabel(failed);
            frame(locals, THROWABLE);
            super.visitInsn(Opcodes.POP);
            super.visitLabel(done);
            frame(locals, null);
        }
    }
}
