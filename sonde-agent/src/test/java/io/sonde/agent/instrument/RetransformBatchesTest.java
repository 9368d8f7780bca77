package io.sonde.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.config.AgentOptions;
import io.sonde.agent.pattern.MethodFilter;
import io.sonde.agent.pattern.Rule;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.bytebuddy.dynamic.ClassFileLocator;
import org.junit.jupiter.api.Test;

/**
 * The re-transformation of loaded classes (an attach): every class asked for exactly once in a
 * batch the JVM accepted, refused classes found alone, counted
 * and reported once, and progress that never goes back. The JVM is a stand-in here (a proxy of
 * {@link Instrumentation} that refuses any batch holding a chosen class), so the test runs the
 * same whatever the machine's load: it asserts on counts, never on timing.
 */
class RetransformBatchesTest {

    /** A few AssertJ classes (loaded by the test's class loader, selected by {@code org.assertj.*}). */
    private static List<Class<?>> assertjClasses() {
        List<Class<?>> out = new ArrayList<>();
        for (String n : List.of("org.assertj.core.api.Assertions", "org.assertj.core.api.ListAssert",
                "org.assertj.core.api.AbstractListAssert", "org.assertj.core.api.AbstractIterableAssert",
                "org.assertj.core.api.AbstractAssert", "org.assertj.core.api.ObjectAssert")) {
            try {
                // initialised, so the attach's order (initialised classes first) keeps them in one part
                out.add(Class.forName(n, true, RetransformBatchesTest.class.getClassLoader()));
            } catch (ClassNotFoundException e) {
                throw new AssertionError(e);
            }
        }
        return out;
    }

    @Test
    void everyClassIsAskedForOnceInAnAcceptedBatchAndRefusedOnesAreFoundAlone() {
        List<Class<?>> distinct = assertjClasses();
        // 2.5 batches' worth: the same classes repeated (the instrumenter does not need them distinct)
        List<Class<?>> loaded = new ArrayList<>();
        while (loaded.size() < Instrumenter.BATCH * 5 / 2) {
            loaded.addAll(distinct);
        }
        Class<?> refused = distinct.get(1);
        long refusedCount = loaded.stream().filter(c -> c == refused).count();
        Map<Class<?>, AtomicInteger> accepted = new ConcurrentHashMap<>();
        Instrumentation inst = (Instrumentation) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getAllLoadedClasses":
                            return loaded.toArray(new Class<?>[0]);
                        case "isModifiableClass":
                            return true;
                        case "retransformClasses":
                            Class<?>[] batch = (Class<?>[]) args[0];
                            if (Arrays.asList(batch).contains(refused)) {
                                throw new UnmodifiableClassException("stand-in refusal");
                            }
                            for (Class<?> c : batch) {
                                accepted.computeIfAbsent(c, k -> new AtomicInteger()).incrementAndGet();
                            }
                            return null;
                        default:
                            return null; // addTransformer and the like
                    }
                });
        WeaveStats stats = new WeaveStats(false);
        Instrumenter instrumenter = new Instrumenter(inst, new MethodFilter(List.of(Rule.include("org.assertj.*"))),
                new ProbeCatalog(null), false, ClassFileLocator.NoOp.INSTANCE, false, stats, AgentOptions.Weaver.ASM);
        List<int[]> progress = Collections.synchronizedList(new ArrayList<>());
        instrumenter.onProgress((done, total) -> progress.add(new int[] {done, total}));
        List<String> phases = Collections.synchronizedList(new ArrayList<>());
        instrumenter.onPhase(phases::add);

        assertThat(instrumenter.installWeaver()).isTrue();

        assertThat(instrumenter.retransformTotal()).isEqualTo(loaded.size());
        for (Class<?> c : distinct) {
            long times = loaded.stream().filter(x -> x == c).count();
            AtomicInteger n = accepted.get(c);
            if (c == refused) {
                assertThat(n).as("never in an accepted batch").isNull();
            } else {
                assertThat(n).as(c.getName()).isNotNull();
                assertThat(n.get()).as("asked for once per occurrence: " + c.getName()).isEqualTo((int) times);
            }
        }
        assertThat(instrumenter.loadedClassesWoven()).isEqualTo(loaded.size() - (int) refusedCount);
        assertThat(stats.counters()).contains("weave.failed=1") // reported once, however often it is loaded
                .anyMatch(l -> l.startsWith("weave.failed.class " + refused.getName() + ": "));
        assertThat(progress).isNotEmpty();
        for (int i = 1; i < progress.size(); i++) {
            assertThat(progress.get(i)[0]).as("progress never goes back").isGreaterThanOrEqualTo(progress.get(i - 1)[0]);
        }
        assertThat(progress.get(progress.size() - 1)).containsExactly(loaded.size(), loaded.size());
        assertThat(phases).containsExactly("candidates", "retransform");
    }

    /**
     * As HotSpot does it: a batch's classes go through the transformer in order, and the batch is
     * given up at the first class that fails to link, right after its transform. The refused class
     * is then found with two calls more each (tried alone, the rest again), not by halving.
     */
    @Test
    void aRefusedClassIsFoundAsTheLastOneTransformed() {
        List<Class<?>> distinct = assertjClasses();
        Set<Class<?>> refused = Set.of(distinct.get(1), distinct.get(4));
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        Map<Class<?>, List<byte[]>> returned = new ConcurrentHashMap<>();
        Map<Class<?>, AtomicInteger> accepted = new ConcurrentHashMap<>();
        List<ClassFileTransformer> transformers = new ArrayList<>();
        Instrumentation inst = (Instrumentation) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getAllLoadedClasses":
                            return distinct.toArray(new Class<?>[0]);
                        case "isModifiableClass":
                            return true;
                        case "addTransformer":
                            transformers.add((ClassFileTransformer) args[0]);
                            return null;
                        case "retransformClasses":
                            Class<?>[] batch = (Class<?>[]) args[0];
                            calls.add(batch.length + (Arrays.stream(batch).anyMatch(refused::contains) ? " refused" : ""));
                            for (Class<?> c : batch) {
                                String internal = c.getName().replace('.', '/');
                                for (ClassFileTransformer t : transformers) {
                                    byte[] out = t.transform(c.getModule(), c.getClassLoader(), internal, c, null, classFile(c));
                                    returned.computeIfAbsent(c, k -> Collections.synchronizedList(new ArrayList<>())).add(out);
                                }
                                if (refused.contains(c)) {
                                    throw new InternalError("stand-in link failure of " + c.getName());
                                }
                            }
                            for (Class<?> c : batch) {
                                accepted.computeIfAbsent(c, k -> new AtomicInteger()).incrementAndGet();
                            }
                            return null;
                        default:
                            return null;
                    }
                });
        WeaveStats stats = new WeaveStats(true);
        Instrumenter instrumenter = new Instrumenter(inst, new MethodFilter(List.of(Rule.include("org.assertj.*"))),
                new ProbeCatalog(new FakeProbeRegistry()), false, null, false, stats, AgentOptions.Weaver.ASM);

        assertThat(instrumenter.installWeaver()).isTrue();

        // a batch of one (the 1st class); then the other 5: refused at their 1st (the 2nd class); it
        // alone; the other 4, refused at their 3rd (the 5th class); it alone; the remaining 3
        assertThat(calls).containsExactly("1", "5 refused", "1 refused", "4 refused", "1 refused", "3");
        for (Class<?> c : distinct) {
            assertThat(accepted.containsKey(c)).as(c.getName()).isEqualTo(!refused.contains(c));
        }
        assertThat(instrumenter.loadedClassesWoven()).isEqualTo(distinct.size() - refused.size());
        assertThat(stats.counters()).contains("weave.failed=2", "weave.refused.calls=4");
        // a class given again after a refused batch gets the same class file back, woven once
        long wovenClasses = 0;
        for (Class<?> c : distinct) {
            List<byte[]> out = returned.get(c);
            assertThat(out).as(c.getName()).isNotEmpty();
            for (byte[] again : out) {
                assertThat(again).as("the same each time: " + c.getName()).isEqualTo(out.get(0));
            }
            wovenClasses += out.get(0) != null ? 1 : 0;
        }
        assertThat(returned.get(distinct.get(2))).as("given in the two calls after the 2nd class was found").hasSize(2);
        assertThat(wovenClasses).isPositive();
        assertThat(stats.counters()).contains("weave.classes=" + wovenClasses);
    }

    private static byte[] classFile(Class<?> c) {
        try (java.io.InputStream in = c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
