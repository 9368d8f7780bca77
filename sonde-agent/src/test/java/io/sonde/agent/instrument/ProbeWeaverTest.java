package io.sonde.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.pattern.MethodFilter;
import io.sonde.agent.pattern.Rule;
import io.sonde.agent.sample.WeaveShapes;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The ASM weaver on real class files: the woven classes are defined in a loader of their own (so
 * the JVM verifies them, stack map frames included) and must compute what the originals compute;
 * every method with a body gets exactly one probe, named and typed as the catalog expects.
 */
class ProbeWeaverTest {

    private static final String SHAPES = WeaveShapes.class.getName();
    private static final String SHAPE = WeaveShapes.Shape.class.getName();

    @Test
    void wovenClassesVerifyAndComputeTheSame() throws Exception {
        Map<String, String> probes = new TreeMap<>();
        ProbeWeaver.Probes catalog = (name, signature) -> {
            assertThat(probes.put(name + signature, signature)).as("one probe per method: " + name).isNull();
            return probes.size();
        };
        MethodFilter all = new MethodFilter(List.of(Rule.include("io.sonde.agent.sample.WeaveShapes*")));
        Map<String, byte[]> woven = wovenSamples(all, catalog);
        assertThat(woven.get(SHAPES + "$1")).as("an anonymous class with only a constructor is not woven")
                .isEqualTo(classFile(SHAPES + "$1"));
        ClassLoader isolated = isolated(woven);
        Class<?> wovenShapes = Class.forName(SHAPES, true, isolated);
        assertThat(wovenShapes.getClassLoader()).isSameAs(isolated);
        String expected = WeaveShapes.digest();
        assertThat(wovenShapes.getMethod("digest").invoke(null)).isEqualTo(expected);
        assertThat(expected).contains("checked fail", "thrown big 3");

        assertThat(probes).containsKeys(
                SHAPES + ".add(II)I", SHAPES + ".wide(JDIJ)D", SHAPES + ".flag(I)Z", SHAPES + ".letter(I)C",
                SHAPES + ".small(I)B", SHAPES + ".shortOf(I)S", SHAPES + ".ratio(I)F", SHAPES + ".array(I)[I",
                SHAPES + ".nothing()V", SHAPES + ".digest()Ljava/lang/String;", SHAPE + ".side(I)I",
                SHAPE + ".twice(L" + SHAPE.replace('.', '/') + ";I)I");
        assertThat(probes.keySet()).as("lambda bodies are probed; constructors and static initialisers are not")
                .anyMatch(k -> k.startsWith(SHAPES + ".lambda$lambdas$"))
                .noneMatch(k -> k.contains("<init>") || k.contains("<clinit>"));
    }

    @Test
    void aClassWithNoSelectedMethodIsLeftAlone() throws Exception {
        List<String> asked = new ArrayList<>();
        MethodFilter onlyAdd = new MethodFilter(List.of(Rule.include(SHAPES + ".add")));
        assertThat(ProbeWeaver.weave(classFile(SHAPE), SHAPE, onlyAdd, (n, s) -> {
            asked.add(n);
            return 1;
        })).isNull();
        assertThat(ProbeWeaver.weave(classFile(SHAPES), SHAPES, onlyAdd, (n, s) -> {
            asked.add(n);
            return 1;
        })).isNotNull();
        assertThat(asked).containsExactly(SHAPES + ".add");
    }

    @Test
    void methodsTakenOutOfTheCodeAreCopiedUnchangedAndAClassWithNoneLeftIsNotWoven() throws Exception {
        MethodFilter all = new MethodFilter(List.of(Rule.include("io.sonde.agent.sample.WeaveShapes*")));
        List<String> registered = new ArrayList<>();
        ProbeWeaver.Probes allButAdd = new ProbeWeaver.Probes() {
            @Override
            public int probeFor(String name, String signature) {
                registered.add(name);
                return registered.size();
            }

            @Override
            public boolean weaves(String name, int codeBytes) {
                return !name.equals(SHAPES + ".add");
            }
        };
        Map<String, byte[]> woven = wovenSamples(all, allButAdd);
        assertThat(registered).contains(SHAPES + ".wide").doesNotContain(SHAPES + ".add");
        assertThat(Class.forName(SHAPES, true, isolated(woven)).getMethod("digest").invoke(null))
                .isEqualTo(WeaveShapes.digest());
        // add's code is the original's: the woven class calls Probes only from the other methods
        assertThat(probeCalls(woven.get(SHAPES), "add")).isZero();
        assertThat(probeCalls(woven.get(SHAPES), "wide")).isPositive();

        ProbeWeaver.Probes none = new ProbeWeaver.Probes() {
            @Override
            public int probeFor(String name, String signature) {
                throw new AssertionError("no probe may be registered: " + name);
            }

            @Override
            public boolean weaves(String name, int codeBytes) {
                return false;
            }
        };
        assertThat(ProbeWeaver.weave(classFile(SHAPE), SHAPE, all, none)).as("nothing left to weave").isNull();
    }

    /**
     * On every class file of a real library (Byte Buddy's jar: thousands of methods, every kind of
     * stack map frame), read by ASM with its frames expanded before and after weaving: each woven
     * method has the class file's own frames, in order, with slot E's int added after the locals
     * (TOP up to E), between the two frames of the entry and the six of the exits; every other
     * method keeps its frames as they were.
     */
    @Test
    void theClassFilesOwnFramesGetSlotEAndAreOtherwiseKept() throws Exception {
        java.nio.file.Path jar = java.nio.file.Path.of(
                net.bytebuddy.ByteBuddy.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        MethodFilter all = new MethodFilter(List.of(Rule.include("*")));
        int wovenMethods = 0;
        int checkedFrames = 0;
        try (java.util.jar.JarFile classes = new java.util.jar.JarFile(jar.toFile())) {
            for (java.util.jar.JarEntry e : java.util.Collections.list(classes.entries())) {
                String path = e.getName();
                if (!path.endsWith(".class") || path.startsWith("META-INF/") || path.endsWith("module-info.class")) {
                    continue;
                }
                byte[] original;
                try (InputStream in = classes.getInputStream(e)) {
                    original = in.readAllBytes();
                }
                String className = path.substring(0, path.length() - 6).replace('/', '.');
                byte[] woven = ProbeWeaver.weave(original, className, all, (n, sig) -> 7);
                if (woven == null) {
                    continue;
                }
                Map<String, List<String>> before = expandedFrames(original);
                Map<String, List<String>> after = expandedFrames(woven);
                Map<String, Integer> slotE = maxLocals(original);
                assertThat(after.keySet()).as(className).isEqualTo(before.keySet());
                for (Map.Entry<String, List<String>> m : before.entrySet()) {
                    List<String> own = m.getValue();
                    List<String> out = after.get(m.getKey());
                    if (probeCalls(woven, m.getKey()) == 0) {
                        assertThat(out).as(className + "." + m.getKey()).isEqualTo(own);
                        continue;
                    }
                    wovenMethods++;
                    assertThat(out).as(className + "." + m.getKey()).hasSize(own.size() + 8);
                    int e0 = slotE.get(m.getKey());
                    for (int i = 0; i < own.size(); i++) {
                        assertThat(out.get(2 + i)).as(className + "." + m.getKey() + " frame " + i)
                                .isEqualTo(withSlot(own.get(i), e0));
                        checkedFrames++;
                    }
                }
            }
        }
        assertThat(wovenMethods).isGreaterThan(1000);
        assertThat(checkedFrames).isGreaterThan(1000);
    }

    /** Per method (name + descriptor): its frames as ASM expands them, "locals | stack", labels as "U". */
    private static Map<String, List<String>> expandedFrames(byte[] classFile) {
        Map<String, List<String>> frames = new TreeMap<>();
        new net.bytebuddy.jar.asm.ClassReader(classFile).accept(new net.bytebuddy.jar.asm.ClassVisitor(net.bytebuddy.jar.asm.Opcodes.ASM9) {
            @Override
            public net.bytebuddy.jar.asm.MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                List<String> list = new ArrayList<>();
                frames.put(name + descriptor, list);
                return new net.bytebuddy.jar.asm.MethodVisitor(net.bytebuddy.jar.asm.Opcodes.ASM9) {
                    @Override
                    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
                        list.add(render(local, numLocal) + " | " + render(stack, numStack));
                    }
                };
            }
        }, net.bytebuddy.jar.asm.ClassReader.EXPAND_FRAMES);
        return frames;
    }

    private static String render(Object[] types, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(types[i] instanceof net.bytebuddy.jar.asm.Label ? "U" : String.valueOf(types[i]));
        }
        return String.join(",", out);
    }

    /** An original frame's rendering with TOP up to slot {@code e} and then e's int. */
    private static String withSlot(String frame, int e) {
        String locals = frame.substring(0, frame.indexOf(" | "));
        List<String> out = new ArrayList<>(locals.isEmpty() ? List.of() : List.of(locals.split(",")));
        int slots = 0;
        for (String l : out) {
            slots += l.equals(String.valueOf(net.bytebuddy.jar.asm.Opcodes.LONG))
                    || l.equals(String.valueOf(net.bytebuddy.jar.asm.Opcodes.DOUBLE)) ? 2 : 1;
        }
        for (int i = slots; i < e; i++) {
            out.add(String.valueOf(net.bytebuddy.jar.asm.Opcodes.TOP));
        }
        out.add(String.valueOf(net.bytebuddy.jar.asm.Opcodes.INTEGER));
        return String.join(",", out) + frame.substring(frame.indexOf(" | "));
    }

    /** Per method (name + descriptor): the max_locals of its code. */
    private static Map<String, Integer> maxLocals(byte[] classFile) {
        Map<String, Integer> result = new TreeMap<>();
        new net.bytebuddy.jar.asm.ClassReader(classFile).accept(new net.bytebuddy.jar.asm.ClassVisitor(net.bytebuddy.jar.asm.Opcodes.ASM9) {
            @Override
            public net.bytebuddy.jar.asm.MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                return new net.bytebuddy.jar.asm.MethodVisitor(net.bytebuddy.jar.asm.Opcodes.ASM9) {
                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        result.put(name + descriptor, maxLocals);
                    }
                };
            }
        }, net.bytebuddy.jar.asm.ClassReader.SKIP_FRAMES);
        return result;
    }

    /** The calls to Sonde's {@code Probes} in the code of the methods named {@code method}. */
    private static int probeCalls(byte[] classFile, String method) {
        int[] calls = {0};
        new net.bytebuddy.jar.asm.ClassReader(classFile).accept(new net.bytebuddy.jar.asm.ClassVisitor(net.bytebuddy.jar.asm.Opcodes.ASM9) {
            @Override
            public net.bytebuddy.jar.asm.MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                if (!name.equals(method) && !(name + descriptor).equals(method)) return null;
                return new net.bytebuddy.jar.asm.MethodVisitor(net.bytebuddy.jar.asm.Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String called, String desc, boolean itf) {
                        if (owner.equals("io/sonde/core/probe/Probes")) calls[0]++;
                    }
                };
            }
        }, 0);
        return calls[0];
    }

    @Test
    void largeProbeIdsAreWovenAsConstants() throws Exception {
        // ids beyond a short need ldc rather than sipush
        MethodFilter all = new MethodFilter(List.of(Rule.include("io.sonde.agent.sample.WeaveShapes*")));
        Map<String, byte[]> woven = wovenSamples(all, (n, s) -> 1_000_000);
        assertThat(Class.forName(SHAPES, true, isolated(woven)).getMethod("digest").invoke(null))
                .isEqualTo(WeaveShapes.digest());
    }

    /** The sample's classes woven (or as they are, when no method was selected), by name. */
    private static Map<String, byte[]> wovenSamples(MethodFilter filter, ProbeWeaver.Probes probes) throws IOException {
        Map<String, byte[]> classes = new TreeMap<>();
        for (String name : List.of(SHAPES, SHAPE, SHAPES + "$1")) {
            byte[] out = ProbeWeaver.weave(classFile(name), name, filter, probes);
            classes.put(name, out != null ? out : classFile(name));
        }
        assertThat(classes.get(SHAPES)).isNotEqualTo(classFile(SHAPES));
        return classes;
    }

    /** A loader of its own for the given classes (verified when defined), the test's loader for the rest. */
    static ClassLoader isolated(Map<String, byte[]> classes) {
        return new ClassLoader(null) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] b = classes.get(name);
                if (b == null) {
                    return ProbeWeaverTest.class.getClassLoader().loadClass(name);
                }
                return defineClass(name, b, 0, b.length);
            }
        };
    }

    static byte[] classFile(String name) throws IOException {
        try (InputStream in = ProbeWeaverTest.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class")) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }
}
