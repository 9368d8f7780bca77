package io.sonde.agent.propagation;

import java.util.function.BiFunction;

/** A {@code BiFunction} handed over with its hander's trace position (see {@link ContextTask}). */
public final class ContextBiFunction extends Handoff implements BiFunction<Object, Object, Object> {

    private final BiFunction<Object, Object, ?> fn;

    ContextBiFunction(BiFunction<Object, Object, ?> fn, long parentTraceId, int parentOrderIndex, long handoffNanos) {
        super(parentTraceId, parentOrderIndex, handoffNanos);
        this.fn = fn;
    }

    @Override
    public Object apply(Object t, Object u) {
        Object token = begin();
        try {
            return fn.apply(t, u);
        } finally {
            end(token);
        }
    }

    @Override
    public String toString() {
        return fn.toString();
    }
}
