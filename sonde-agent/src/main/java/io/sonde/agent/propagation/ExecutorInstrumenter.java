package io.sonde.agent.propagation;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.sonde.agent.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.utility.JavaModule;

/**
 * Makes trace context follow tasks handed to {@code java.util.concurrent} executors by wrapping
 * the task argument of the hand-off methods:
 * <ul>
 *   <li>{@code ThreadPoolExecutor.execute(Runnable)}: every task of a thread pool passes here,
 *       including {@code submit}, {@code invokeAll} and {@code invokeAny} of
 *       {@code AbstractExecutorService} (they wrap the task in a {@code FutureTask} and call
 *       {@code execute}), so all executors from {@code Executors.newFixedThreadPool},
 *       {@code newCachedThreadPool} and {@code newSingleThreadExecutor} are covered;</li>
 *   <li>{@code ForkJoinPool.execute(Runnable)}, {@code submit(Runnable)} and
 *       {@code submit(Callable)} for plain tasks (not for {@code ForkJoinTask}s, whose identity
 *       fork/join relies on).</li>
 * </ul>
 * Not covered: {@code ScheduledThreadPoolExecutor.schedule*} (it bypasses {@code execute}), tasks
 * that are already {@code ForkJoinTask}s (so {@code CompletableFuture.*Async} on the common pool),
 * virtual-thread executors (JDK 21+), and executors not built on these two classes.
 */
public final class ExecutorInstrumenter {

    private ExecutorInstrumenter() {}

    /**
     * Weaves the hand-off methods of the two executor classes (already loaded: re-transformed).
     *
     * @param agentClasses where the advice class files are read from
     */
    public static void install(Instrumentation inst, ClassFileLocator agentClasses) {
        // java.base must be able to link to Sonde's classes on the bootstrap class path, which
        // live in the bootstrap loader's unnamed module: a named module does not read it by default.
        Module sonde = Propagation.class.getModule();
        inst.redefineModule(Object.class.getModule(), Set.of(sonde), Map.of(), Map.of(), Set.of(), Map.of());

        Advice runnable = Advice.to(ExecutorAdvice.WrapRunnable.class, agentClasses);
        Advice callable = Advice.to(ExecutorAdvice.WrapCallable.class, agentClasses);

        new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.RedefinitionStrategy.Listener.BatchReallocator.splitting())
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onError(String typeName, ClassLoader l, JavaModule m, boolean loaded, Throwable e) {
                        AgentLog.info("cannot instrument " + typeName + " for executor propagation: " + e);
                    }
                })
                .ignore(none())
                .type(named("java.util.concurrent.ThreadPoolExecutor"))
                .transform((builder, type, loader, module, domain) -> builder.visit(runnable.on(
                        named("execute").and(takesArguments(Runnable.class)))))
                .type(named("java.util.concurrent.ForkJoinPool"))
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(runnable.on(named("execute").and(takesArguments(Runnable.class))))
                        .visit(runnable.on(named("submit").and(takesArguments(1)).and(takesArgument(0, Runnable.class))))
                        .visit(callable.on(named("submit").and(takesArguments(1)).and(takesArgument(0, Callable.class)))))
                .installOn(inst);
    }

}
