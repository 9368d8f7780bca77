package io.sonde.agent.budget;

import io.sonde.agent.instrument.ProbeCatalog;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * The overhead budget's rule for trivial methods ({@code budget.trivial=on}): a method of at most
 * {@value #MAX_BYTES} bytes of bytecode is left out of the code when it is first woven. The
 * weaver asks ({@link ProbeCatalog#onFirstWeave}) on the thread that loads the class; the budget
 * thread then takes what was left out ({@link #drain}) to switch it off and record it, so that
 * the weaving thread never takes the catalogue's lock or writes an event.
 */
final class TrivialMethods implements ProbeCatalog.LeaveOut {
    /**
     * HotSpot's {@code MaxTrivialSize} (default 6): the size up to which the JIT inlines a method
     * even where its call is cold — a getter, a setter, a constant. Taken from the JVM, not
     * fitted: such a method tells nothing a trace needs, runs as often as its callers' loops, and
     * its probe would make it many times larger and lose it that inlining.
     */
    static final int MAX_BYTES = 6;

    /** A method left out, and its size. */
    private record LeftOut(String probe, int codeBytes) {}

    private final Predicate<String> pinned;
    private final Queue<LeftOut> leftOut = new ConcurrentLinkedQueue<>();
    /** Each name is left out once: an operator's switch on puts it back for good. */
    private final Set<String> judged = ConcurrentHashMap.newKeySet();
    private volatile int count;

    /** @param pinned the probes that stay on whatever they cost ({@code budget.pin}) */
    TrivialMethods(Predicate<String> pinned) {
        this.pinned = pinned;
    }

    /** True for a trivial method not pinned and not judged before; it is then queued for {@link #drain}. */
    @Override
    public boolean leavesOut(String name, int codeBytes) {
        if (codeBytes > MAX_BYTES || pinned.test(name) || !judged.add(name)) return false;
        leftOut.add(new LeftOut(name, codeBytes));
        return true;
    }

    /** The methods left out since the last call, in that order, each with the reason to record (budget thread). */
    Map<String, String> drain() {
        Map<String, String> out = new LinkedHashMap<>();
        for (LeftOut l; (l = leftOut.poll()) != null; ) {
            out.put(l.probe(), reason(l.codeBytes()));
        }
        count += out.size();
        return out;
    }

    /** How many methods were left out and drained so far. */
    int count() {
        return count;
    }

    static String reason(int codeBytes) {
        return String.format(Locale.ROOT, "left out of the code when first woven: a trivial method (%d byte(s) of bytecode,"
                + " at most HotSpot's MaxTrivialSize of %d, which the JIT inlines even where the call is cold); its probe"
                + " would cost more than the method and stop that inlining", codeBytes, MAX_BYTES);
    }
}
