package io.sonde.agent.propagation;

import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A task or function handed over with its hander's trace position: runs the wrapped object as a
 * child of that position. One class for every functional type a hand-off takes (it implements all
 * of them and delegates to the one the wrapped object is), so the woven advice can replace any
 * task argument whatever its declared type; each method is only ever called through the type of
 * the argument it replaced. {@code BiFunction} alone has its own class, {@link ContextBiFunction}
 * (its {@code andThen} clashes with {@code Function}'s).
 */
public final class ContextTask extends Handoff
        implements Runnable, Callable<Object>, Supplier<Object>, Function<Object, Object>, Consumer<Object>,
                BiConsumer<Object, Object> {

    private final Object task;

    ContextTask(Object task, long parentTraceId, int parentOrderIndex, long handoffNanos) {
        super(parentTraceId, parentOrderIndex, handoffNanos);
        this.task = task;
    }

    /** The wrapped task. */
    public Object task() {
        return task;
    }

    @Override
    public void run() {
        Object token = begin();
        try {
            ((Runnable) task).run();
        } finally {
            end(token);
        }
    }

    @Override
    public Object call() throws Exception {
        Object token = begin();
        try {
            return ((Callable<?>) task).call();
        } finally {
            end(token);
        }
    }

    @Override
    public Object get() {
        Object token = begin();
        try {
            return ((Supplier<?>) task).get();
        } finally {
            end(token);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object apply(Object t) {
        Object token = begin();
        try {
            return ((Function<Object, ?>) task).apply(t);
        } finally {
            end(token);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void accept(Object t) {
        Object token = begin();
        try {
            ((Consumer<Object>) task).accept(t);
        } finally {
            end(token);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void accept(Object t, Object u) {
        Object token = begin();
        try {
            ((BiConsumer<Object, Object>) task).accept(t, u);
        } finally {
            end(token);
        }
    }

    @Override
    public String toString() {
        return task.toString();
    }
}
