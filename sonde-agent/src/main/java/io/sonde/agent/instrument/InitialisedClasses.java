package io.sonde.agent.instrument;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which loaded classes the JVM has initialised, for the order of an attach's re-transformation.
 * HotSpot refuses a whole {@code retransformClasses} batch when one of its classes cannot be
 * linked, after having transformed and parsed the classes before it in vain; a class that has
 * been initialised has been linked, so it is never refused for that reason. Putting the
 * initialised classes first, and the others in batches of their own, confines the refusals (and
 * the work they waste) to the few classes never initialised (docs/benchmarks.md, "Attach").
 *
 * <p>The JDK says whether a class is initialised only inside {@code java.base}
 * ({@code jdk.internal.misc.Unsafe.shouldBeInitialized}, which {@code java.lang.invoke} uses): the
 * agent exports that package to its own module through {@link Instrumentation#redefineModule},
 * as an agent may. Where that fails, nothing is known and the order stays as it was.
 */
final class InitialisedClasses {

    private InitialisedClasses() {}

    /** True for a class the JVM has initialised; null when the JDK does not tell. */
    static Predicate<Class<?>> of(Instrumentation inst) {
        try {
            Module self = InitialisedClasses.class.getModule();
            Module base = Object.class.getModule();
            if (!base.isExported("jdk.internal.misc", self)) {
                inst.redefineModule(base, Set.of(), Map.of("jdk.internal.misc", Set.of(self)), Map.of(), Set.of(), Map.of());
            }
            Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
            Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
            Method shouldBeInitialized = unsafeClass.getMethod("shouldBeInitialized", Class.class);
            shouldBeInitialized.invoke(unsafe, InitialisedClasses.class); // fails here if not allowed
            return c -> {
                try {
                    return !(Boolean) shouldBeInitialized.invoke(unsafe, c);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return false;
                }
            };
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The classes in batches: a batch of one class first, then batches of at most {@code size};
     * first the classes {@code initialised} accepts, then the others, never both in one batch; each
     * part in its given order. With no predicate, the classes in their order.
     *
     * <p>The batch of one: the first re-definition in a JVM whose agent was attached makes HotSpot
     * throw away all the compiled code of the JVM (until then it has not recorded which compiled
     * code depends on which method), the weaver's own included. Done with one class, before the
     * weaver has been compiled, it costs almost nothing; done after a batch of 100 it threw away
     * the weaver the JIT had just compiled (docs/benchmarks.md, "Attach").
     */
    static List<List<Class<?>>> batches(List<Class<?>> classes, Predicate<Class<?>> initialised, int size) {
        List<Class<?>> first = classes;
        List<Class<?>> then = List.of();
        if (initialised != null) {
            first = new ArrayList<>();
            then = new ArrayList<>();
            for (Class<?> c : classes) {
                (initialised.test(c) ? first : then).add(c);
            }
        }
        List<List<Class<?>>> out = new ArrayList<>();
        for (List<Class<?>> part : List.of(first, then)) {
            for (int from = 0; from < part.size(); ) {
                int n = out.isEmpty() ? 1 : size;
                out.add(part.subList(from, Math.min(part.size(), from + n)));
                from += n;
            }
        }
        return out;
    }
}
