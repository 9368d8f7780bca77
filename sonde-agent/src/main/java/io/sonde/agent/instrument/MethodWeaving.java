package io.sonde.agent.instrument;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The pass both ASM weavers ({@link ProbeWeaver}, {@link HookWeaver}) make over a class file: one
 * class reader into a class writer made from it (so every method no visitor touches is copied as
 * bytes), compressed frames ({@link SlotFrames} adds the woven code's slot to them), and for each
 * method with code that is not a constructor or static initialiser, {@link #weave} asked for the
 * visitor that weaves it.
 */
abstract class MethodWeaving extends ClassVisitor {

    private final int[] maxLocals;
    private final int[] codeLengths;
    private int methodIndex;
    /** The class's internal name ({@code a/b/C$D}). */
    String owner;
    /** True when the class file carries stack map frames (version 50 and later). */
    boolean frames;
    private boolean woven;

    MethodWeaving(ClassReader reader, ClassWriter writer) {
        super(Opcodes.ASM9, writer);
        ProbeWeaver.MethodCode code = ProbeWeaver.methodCode(reader);
        this.maxLocals = code.maxLocals();
        this.codeLengths = code.codeLengths();
    }

    /**
     * The class file {@code reader} holds, woven by the weaving {@code make} returns for the
     * reader and its writer; null when no method was woven.
     */
    static byte[] weave(ClassReader reader, java.util.function.BiFunction<ClassReader, ClassWriter, MethodWeaving> make) {
        ClassWriter writer = new ClassWriter(reader, 0);
        MethodWeaving weaving = make.apply(reader, writer);
        reader.accept(weaving, 0);
        return weaving.woven ? writer.toByteArray() : null;
    }

    /**
     * The visitor weaving this method (it has code, and is no constructor or static initialiser),
     * wrapping {@code mv}; null to copy the method unchanged.
     *
     * @param maxLocals the method's {@code max_locals}: the woven code's slot {@code E}
     * @param codeLength the method's {@code code_length} (its bytecode's size)
     */
    abstract MethodVisitor weave(MethodVisitor mv, int access, String name, String descriptor, int maxLocals, int codeLength);

    @Override
    public final void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        owner = name;
        frames = (version & 0xFFFF) >= Opcodes.V1_6;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public final MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        int index = methodIndex++;
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (name.charAt(0) == '<' || index >= maxLocals.length || maxLocals[index] < 0) {
            return mv; // a MethodWriter: copied unchanged
        }
        MethodVisitor weaving = weave(mv, access, name, descriptor, maxLocals[index], codeLengths[index]);
        if (weaving == null) {
            return mv;
        }
        woven = true;
        return weaving;
    }
}
