package io.sonde.agent.instrument;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which loaded classes the JVM has initialised, for the order of an attach's re-transformation.
 * HotSpot refuses a whole {@code retransformClasses} batch when one of its classes cannot be
 * linked, after having transformed and parsed the classes before it in vain; a class that has
 * been initialised has been linked, so it is never refused for that reason. Putting the
 * initialised classes first, and the others in batches of their own, confines the refusals (and
 * the work they waste) to the few classes never initialised (docs/benchmarks.md, "Attach").
 *
 * <p>Whether a class is initialised: {@code sun.misc.Unsafe.shouldBeInitialized} of the
 * {@code jdk.unsupported} module, which the JDK exports and opens for such use (JDK 17 to 21). The
 * agent does not export any package of {@code java.base} to itself: that would open the JDK's
 * internals to everything on the boot class path of the user's program. Where the method is
 * missing (it was removed in later JDKs), nothing is known and the order stays as it was.
 */
final class InitialisedClasses {

    private InitialisedClasses() {}

    /** True for a class the JVM has initialised; null when the JDK does not tell. */
    static Predicate<Class<?>> of() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            Object unsafe = theUnsafe.get(null);
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
