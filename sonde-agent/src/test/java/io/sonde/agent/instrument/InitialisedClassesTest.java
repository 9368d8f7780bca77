package io.sonde.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The order of an attach's re-transformation: a batch of one class first, the initialised classes
 * first, the others in batches of their own, each part in its given order, no batch over the size.
 */
class InitialisedClassesTest {

    private static final List<Class<?>> SAMPLE = List.of(String.class, Integer.class, Long.class, List.class,
            Set.class, Random.class, Thread.class, Object.class, StringBuilder.class, Math.class, Runtime.class);

    @Test
    void initialisedClassesComeFirstAndNoBatchMixesTheTwo() {
        Random r = new Random(19);
        for (int round = 0; round < 200; round++) {
            List<Class<?>> classes = new ArrayList<>();
            int n = r.nextInt(40);
            for (int i = 0; i < n; i++) {
                classes.add(SAMPLE.get(r.nextInt(SAMPLE.size())));
            }
            Set<Class<?>> initialisedSet = Set.of(String.class, List.class, Thread.class, Math.class);
            Predicate<Class<?>> initialised = initialisedSet::contains;
            int size = 1 + r.nextInt(7);

            List<List<Class<?>>> batches = InitialisedClasses.batches(classes, initialised, size);

            List<Class<?>> flat = new ArrayList<>();
            boolean seenOther = false;
            if (!classes.isEmpty()) {
                assertThat(batches.get(0)).as("a batch of one first").hasSize(1);
            }
            for (List<Class<?>> batch : batches) {
                assertThat(batch).isNotEmpty().hasSizeLessThanOrEqualTo(size);
                boolean first = initialised.test(batch.get(0));
                assertThat(batch).as("one kind per batch").allMatch(c -> initialised.test(c) == first);
                assertThat(first && seenOther).as("no initialised class after another").isFalse();
                seenOther |= !first;
                flat.addAll(batch);
            }
            List<Class<?>> expected = new ArrayList<>();
            classes.stream().filter(initialised).forEach(expected::add);
            classes.stream().filter(initialised.negate()).forEach(expected::add);
            assertThat(flat).isEqualTo(expected);
            assertThat(InitialisedClasses.batches(classes, null, size).stream().flatMap(List::stream).toList())
                    .as("nothing known: the given order").isEqualTo(classes);
        }
    }

    /** Loaded, never initialised (the test loads it without initialising it). */
    static final class NeverInitialised {
        static final long LOADED_AT = System.nanoTime();
    }

    @Test
    void onThisJdkTheAnswerIsTheJvms() throws Exception {
        Predicate<Class<?>> initialised = InitialisedClasses.of();
        boolean told = hasShouldBeInitialized();
        assertThat(initialised == null).as("null exactly where sun.misc.Unsafe cannot tell").isEqualTo(!told);
        if (initialised != null) {
            Class<?> never = Class.forName(NeverInitialised.class.getName(), false, getClass().getClassLoader());
            assertThat(initialised.test(String.class)).isTrue();
            assertThat(initialised.test(never)).isFalse();
        }
    }

    private static boolean hasShouldBeInitialized() {
        try {
            Class.forName("sun.misc.Unsafe").getMethod("shouldBeInitialized", Class.class);
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
