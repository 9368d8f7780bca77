package io.sonde.agent.propagation;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.sonde.agent.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinTask;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.utility.JavaModule;

/**
 * Makes trace context follow work handed from one thread to another inside the JDK, by weaving
 * {@link ExecutorAdvice} into the hand-off points (already loaded classes are re-transformed):
 * <ul>
 *   <li>{@code ThreadPoolExecutor.execute(Runnable)}: every task of a thread pool, including
 *       {@code submit}, {@code invokeAll} and {@code invokeAny} (they call {@code execute});</li>
 *   <li>{@code ScheduledThreadPoolExecutor.schedule}, {@code scheduleAtFixedRate},
 *       {@code scheduleWithFixedDelay} (its {@code execute} and {@code submit} call
 *       {@code schedule}): each run of a periodic task is a child of the scheduling execution;</li>
 *   <li>{@code ForkJoinPool.execute}, {@code submit} and {@code invoke}, and
 *       {@code ForkJoinTask.fork()}: plain tasks are wrapped, fork-join tasks keep their identity
 *       and have their hand-off kept beside them until {@code ForkJoinTask.doExec()} runs them;</li>
 *   <li>{@code CompletableFuture}'s private stage builders, for every {@code *Async} method
 *       ({@code supplyAsync}, {@code runAsync}, {@code thenApplyAsync}, ...) on any executor: the
 *       stage's function is wrapped, so it runs as a child of the execution that built the
 *       stage, on the common pool, on its thread-per-task fallback or on any executor;</li>
 *   <li>{@code Thread.start()} and {@code Thread.run()} (platform threads), a virtual thread's
 *       {@code start} and {@code run(Runnable)} (JDK 21+): a thread started inside a trace runs as
 *       its child, which covers {@code new Thread(r).start()}, {@code Thread.ofPlatform()},
 *       {@code Thread.ofVirtual()} and virtual-thread executors;</li>
 *   <li>the worker loops {@code ThreadPoolExecutor.runWorker} and {@code ForkJoinWorkerThread.run}:
 *       a pool thread does not pass what it inherited from its starter on to its tasks.</li>
 * </ul>
 */
public final class ExecutorInstrumenter {

    private ExecutorInstrumenter() {}

    /**
     * Weaves the hand-off points.
     *
     * @param agentClasses where the advice class files are read from
     */
    public static void install(Instrumentation inst, ClassFileLocator agentClasses) {
        // java.base must be able to link to Sonde's classes on the bootstrap class path, which
        // live in the bootstrap loader's unnamed module: a named module does not read it by default.
        Module sonde = Propagation.class.getModule();
        inst.redefineModule(Object.class.getModule(), Set.of(sonde), Map.of(), Map.of(), Set.of(), Map.of());

        Advice wrapFirst = advice(ExecutorAdvice.WrapFirst.class, agentClasses);
        Advice toPool = advice(ExecutorAdvice.ToPool.class, agentClasses);
        Advice stageSecond = advice(ExecutorAdvice.AsyncStageSecond.class, agentClasses);
        Advice stageThird = advice(ExecutorAdvice.AsyncStageThird.class, agentClasses);
        Advice threadStart = advice(ExecutorAdvice.ThreadStart.class, agentClasses);
        Advice workerLoop = advice(ExecutorAdvice.WorkerLoop.class, agentClasses);

        new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.RedefinitionStrategy.Listener.BatchReallocator.splitting())
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onError(String typeName, ClassLoader l, JavaModule m, boolean loaded, Throwable e) {
                        AgentLog.info("cannot instrument " + typeName + " for trace propagation: " + e);
                    }
                })
                .ignore(none())
                .type(named("java.util.concurrent.ThreadPoolExecutor"))
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(wrapFirst.on(named("execute").and(takesArguments(Runnable.class))))
                        .visit(workerLoop.on(named("runWorker"))))
                .type(named("java.util.concurrent.ScheduledThreadPoolExecutor"))
                .transform((builder, type, loader, module, domain) -> builder.visit(wrapFirst.on(
                        namedOneOf("schedule", "scheduleAtFixedRate", "scheduleWithFixedDelay"))))
                .type(named("java.util.concurrent.ForkJoinPool"))
                .transform((builder, type, loader, module, domain) -> builder.visit(toPool.on(
                        namedOneOf("execute", "submit", "invoke")
                                .and(takesArgument(0, Runnable.class)
                                        .or(takesArgument(0, Callable.class))
                                        .or(takesArgument(0, ForkJoinTask.class))))))
                .type(named("java.util.concurrent.ForkJoinTask"))
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(advice(ExecutorAdvice.Fork.class, agentClasses).on(named("fork").and(takesArguments(0))))
                        .visit(advice(ExecutorAdvice.TaskExec.class, agentClasses).on(named("doExec"))))
                .type(named("java.util.concurrent.ForkJoinWorkerThread"))
                .transform((builder, type, loader, module, domain) -> builder.visit(workerLoop.on(
                        named("run").and(takesArguments(0)))))
                .type(named("java.util.concurrent.CompletableFuture"))
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(stageSecond.on(namedOneOf("asyncSupplyStage", "asyncRunStage", "uniApplyStage",
                                        "uniAcceptStage", "uniRunStage", "uniWhenCompleteStage",
                                        "uniExceptionallyStage", "uniComposeExceptionallyStage", "uniComposeStage")
                                .and(takesArguments(2)).and(takesArgument(0, Executor.class))))
                        .visit(advice(ExecutorAdvice.AsyncBiFunctionSecond.class, agentClasses).on(
                                named("uniHandleStage").and(takesArguments(2)).and(takesArgument(0, Executor.class))))
                        .visit(advice(ExecutorAdvice.AsyncBiFunctionThird.class, agentClasses).on(
                                named("biApplyStage").and(takesArguments(3)).and(takesArgument(0, Executor.class))))
                        .visit(stageThird.on(namedOneOf("biAcceptStage", "biRunStage",
                                        "orApplyStage", "orAcceptStage", "orRunStage")
                                .and(takesArguments(3)).and(takesArgument(0, Executor.class)))))
                .type(named("java.lang.Thread"))
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(threadStart.on(named("start").and(not(isConstructor()))))
                        .visit(advice(ExecutorAdvice.ThreadRun.class, agentClasses).on(
                                named("run").and(takesArguments(0)))))
                .type(named("java.lang.VirtualThread"))
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(threadStart.on(named("start")))
                        .visit(advice(ExecutorAdvice.VirtualThreadRun.class, agentClasses).on(
                                named("run").and(takesArguments(Runnable.class)))))
                .installOn(inst);
    }

    private static Advice advice(Class<?> adviceClass, ClassFileLocator agentClasses) {
        return Advice.to(adviceClass, agentClasses);
    }
}
