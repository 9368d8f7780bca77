package io.sonde.agent.propagation;

import io.sonde.agent.AgentLog;
import io.sonde.agent.instrument.HookWeaver;
import io.sonde.agent.instrument.HookWeaver.Hook;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import net.bytebuddy.jar.asm.Type;

/**
 * Makes trace context follow work handed from one thread to another inside the JDK, by weaving
 * calls of {@link Propagation} into the hand-off points with the agent's own ASM weaver ({@link
 * HookWeaver}; already loaded classes are re-transformed, the others woven as they load):
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
 * Every call is guarded: what it throws is dropped. This once used Byte Buddy's {@code Advice}
 * ({@link ExecutorAdvice}, which {@code weaver=bytebuddy} still uses for the worker loops); the
 * woven calls are the same, and an attach no longer loads Byte Buddy for them.
 */
public final class ExecutorInstrumenter {

    private static final String PROPAGATION = "io/sonde/agent/propagation/Propagation";
    private static final String OBJECT_TO_OBJECT = "(Ljava/lang/Object;)Ljava/lang/Object;";
    private static final String EXECUTOR = "Ljava/util/concurrent/Executor;";

    /** Internal class name to its hooks. */
    private static final Map<String, List<Hook>> HOOKS = Map.of(
            "java/util/concurrent/ThreadPoolExecutor", List.of(
                    replaceFirst("execute", "(Ljava/lang/Runnable;)V"::equals, "wrap"),
                    workerLoop("runWorker")),
            "java/util/concurrent/ScheduledThreadPoolExecutor", List.of(
                    replaceFirst("schedule", any(), "wrap"),
                    replaceFirst("scheduleAtFixedRate", any(), "wrap"),
                    replaceFirst("scheduleWithFixedDelay", any(), "wrap")),
            "java/util/concurrent/ForkJoinPool", List.of(
                    replaceFirst("execute", ExecutorInstrumenter::takesTask, "toPool"),
                    replaceFirst("submit", ExecutorInstrumenter::takesTask, "toPool"),
                    replaceFirst("invoke", ExecutorInstrumenter::takesTask, "toPool")),
            "java/util/concurrent/ForkJoinTask", List.of(
                    Hook.call("fork", d -> d.startsWith("()"), PROPAGATION, "forked", "(Ljava/lang/Object;)V", Hook.THIS),
                    Hook.call("doExec", any(), PROPAGATION, "taskRunning", OBJECT_TO_OBJECT, Hook.THIS).endingWith("end")),
            "java/util/concurrent/ForkJoinWorkerThread", List.of(
                    Hook.call("run", "()V"::equals, PROPAGATION, "workerLoop", "()V")),
            "java/util/concurrent/CompletableFuture", completableFutureHooks(),
            "java/lang/Thread", List.of(
                    Hook.call("start", any(), PROPAGATION, "threadStarting", "(Ljava/lang/Thread;)V", Hook.THIS),
                    Hook.call("run", "()V"::equals, PROPAGATION, "threadRunning", "(Ljava/lang/Thread;)Ljava/lang/Object;",
                            Hook.THIS).endingWith("end")),
            "java/lang/VirtualThread", List.of(
                    Hook.call("start", any(), PROPAGATION, "threadStarting", "(Ljava/lang/Thread;)V", Hook.THIS),
                    Hook.call("run", "(Ljava/lang/Runnable;)V"::equals, PROPAGATION, "virtualThreadTask",
                            "(Ljava/lang/Thread;Ljava/lang/Runnable;)Ljava/lang/Runnable;", Hook.THIS, 0).replacing(0)));

    private ExecutorInstrumenter() {}

    /** Weaves the hand-off points: the loaded classes now, the others as they load. */
    public static void install(Instrumentation inst) {
        // java.base must be able to link to Sonde's classes on the bootstrap class path, which
        // live in the bootstrap loader's unnamed module: a named module does not read it by default.
        Module sonde = Propagation.class.getModule();
        inst.redefineModule(Object.class.getModule(), Set.of(sonde), Map.of(), Map.of(), Set.of(), Map.of());
        inst.addTransformer(new Transformer(), true);
        List<Class<?>> loaded = new ArrayList<>();
        for (String internalName : HOOKS.keySet()) {
            Class<?> c = loadedOrNull(internalName.replace('/', '.'));
            if (c != null && inst.isModifiableClass(c)) {
                loaded.add(c);
            }
        }
        try {
            inst.retransformClasses(loaded.toArray(new Class<?>[0]));
        } catch (Throwable e) { // UnmodifiableClassException, a VerifyError of a JDK this weaving does not know...
            for (Class<?> c : loaded) { // one by one: the others still carry the context
                try {
                    inst.retransformClasses(c);
                } catch (Throwable alone) {
                    AgentLog.info("cannot instrument " + c.getName() + " for trace propagation: " + alone);
                }
            }
        }
    }

    /**
     * The JDK class of that name (loaded now if it was not: it is about to be loaded with its
     * hooks anyway), or null on a JDK without it ({@code VirtualThread} before 21).
     */
    private static Class<?> loadedOrNull(String name) {
        try {
            return Class.forName(name, false, null);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** Weaves the classes of {@link #HOOKS}, of the bootstrap loader only. */
    private static final class Transformer implements ClassFileTransformer {
        @Override
        public byte[] transform(Module module, ClassLoader loader, String internalName, Class<?> redefined,
                ProtectionDomain domain, byte[] classFile) {
            if (loader != null || internalName == null) {
                return null;
            }
            List<Hook> hooks = HOOKS.get(internalName);
            if (hooks == null) {
                return null;
            }
            try {
                return HookWeaver.weave(classFile, hooks);
            } catch (Throwable e) { // never let a JDK class fail to load because of the agent
                AgentLog.info("cannot instrument " + internalName.replace('/', '.') + " for trace propagation: " + e);
                return null;
            }
        }
    }

    /** {@code CompletableFuture}'s private stage builders: the function of an {@code *Async} stage is wrapped. */
    private static List<Hook> completableFutureHooks() {
        List<Hook> hooks = new ArrayList<>();
        for (String stage : List.of("asyncSupplyStage", "asyncRunStage", "uniApplyStage", "uniAcceptStage", "uniRunStage",
                "uniWhenCompleteStage", "uniExceptionallyStage", "uniComposeExceptionallyStage", "uniComposeStage")) {
            hooks.add(onExecutor(stage, 2, "wrapOnExecutor"));
        }
        hooks.add(onExecutor("uniHandleStage", 2, "wrapBiFunctionOnExecutor"));
        hooks.add(onExecutor("biApplyStage", 3, "wrapBiFunctionOnExecutor"));
        for (String stage : List.of("biAcceptStage", "biRunStage", "orApplyStage", "orAcceptStage", "orRunStage")) {
            hooks.add(onExecutor(stage, 3, "wrapOnExecutor"));
        }
        return hooks;
    }

    /**
     * {@code stage(Executor e, ..., fn)} with {@code parameters} parameters: the last one (the
     * function) replaced by {@code Propagation.call(e, fn)}.
     */
    private static Hook onExecutor(String stage, int parameters, String call) {
        int fn = parameters - 1;
        return Hook.call(stage, d -> d.startsWith("(" + EXECUTOR) && Type.getArgumentTypes(d).length == parameters,
                PROPAGATION, call, "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", 0, fn).replacing(fn);
    }

    /** The first parameter replaced by {@code Propagation.call(it)}. */
    private static Hook replaceFirst(String method, Predicate<String> descriptor, String call) {
        return Hook.call(method, descriptor, PROPAGATION, call, OBJECT_TO_OBJECT, 0).replacing(0);
    }

    private static Hook workerLoop(String method) {
        return Hook.call(method, any(), PROPAGATION, "workerLoop", "()V");
    }

    /** A {@code ForkJoinPool} method whose first parameter is a task: Runnable, Callable or ForkJoinTask. */
    private static boolean takesTask(String descriptor) {
        return descriptor.startsWith("(Ljava/lang/Runnable;") || descriptor.startsWith("(Ljava/util/concurrent/Callable;")
                || descriptor.startsWith("(Ljava/util/concurrent/ForkJoinTask;");
    }

    private static Predicate<String> any() {
        return descriptor -> true;
    }
}
