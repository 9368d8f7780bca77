package io.sonde.agent.instrument;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.sonde.agent.AgentLog;
import io.sonde.agent.config.AgentOptions;
import io.sonde.agent.pattern.MethodFilter;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.VisibilityBridgeStrategy;
import net.bytebuddy.dynamic.scaffold.InstrumentedType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.utility.JavaModule;

/**
 * Weaves {@link ProbeAdvice} into the methods the {@link MethodFilter} selects, in classes loaded
 * from now on and in classes already loaded (re-transformed where the JVM allows).
 *
 * <p>What is instrumented: methods with a body, static or not, including lambda bodies (the
 * private {@code lambda$...} methods javac puts in the enclosing class). Not instrumented:
 * constructors and static initialisers, abstract and native methods, bridge methods, classes of
 * the bootstrap and platform class loaders (the JDK), Sonde's own classes and Byte Buddy's.
 * Weaving never adds fields or methods, so re-transforming a loaded class is always allowed.
 */
public final class Instrumenter {

    private final Instrumentation inst;
    private final MethodFilter filter;
    private final ProbeCatalog catalog;
    private final boolean verbose;
    private final ClassFileLocator agentClasses;
    private final boolean clearAtWorkerLoops;
    private final WeaveStats stats;
    private final AgentOptions.Weaver weaver;
    private final AtomicInteger retransformDone = new AtomicInteger();
    private final AtomicInteger retransformFailed = new AtomicInteger();
    private final AtomicInteger transformedClasses = new AtomicInteger();
    private final Set<String> failedClasses = ConcurrentHashMap.newKeySet();
    private volatile Progress progress = (woven, total) -> { };
    private volatile Consumer<String> phaseEnd = phase -> { };
    private volatile int retransformTotal;
    /** The thread re-transforming the loaded classes ({@link #retransformLoaded()}), while it does. */
    private volatile Thread retransforming;
    /**
     * The class the transformer was last given on {@link #retransforming}'s behalf (that thread only).
     * A re-transformation on another thread (the overhead budget's {@link #retransformNamed}) never
     * sets it, and its clearing of it at most costs the attach thread its guess: a refused batch then
     * falls back to halving, which is slower but finds the same classes.
     */
    private Class<?> lastRetransformed;
    /**
     * What the transformer returned for each class of the current batch of {@link #retransformLoaded}
     * ({@link #PASSED} for null), {@link #retransforming}'s thread only: when the JVM refuses a
     * batch, the classes before the refused one are given again and need not be woven again.
     */
    private final Map<Class<?>, byte[]> wovenInBatch = new java.util.IdentityHashMap<>();
    private static final byte[] PASSED = new byte[0];

    /** Progress of the re-transformation of loaded classes (start-up, attach). */
    public interface Progress {
        /** {@code done} of {@code total} loaded classes re-transformed so far. */
        void update(int done, int total);
    }

    /**
     * Loaded classes are re-transformed in batches of this many: one {@code retransformClasses}
     * call each, and one progress report between them.
     */
    static final int BATCH = 100;

    /**
     * @param agentClasses where the advice class files are read from (the agent jar: classes on
     *     the bootstrap class path have no class loader to ask for their bytes)
     * @param clearAtWorkerLoops true (trace propagation on): the {@link WorkerLoops} get advice
     *     that clears the trace parent their thread inherited from its starter, selected or not
     */
    public Instrumenter(Instrumentation inst, MethodFilter filter, ProbeCatalog catalog, boolean verbose,
            ClassFileLocator agentClasses, boolean clearAtWorkerLoops, WeaveStats stats, AgentOptions.Weaver weaver) {
        this.inst = inst;
        this.weaver = weaver;
        this.stats = stats;
        this.clearAtWorkerLoops = clearAtWorkerLoops;
        this.agentClasses = agentClasses;
        this.filter = filter;
        this.catalog = catalog;
        this.verbose = verbose;
        catalog.onReweave(this::retransformNamed);
    }

    /** Where to report the progress of re-transforming loaded classes (call before {@link #install()}). */
    public void onProgress(Progress p) {
        this.progress = p;
    }

    /**
     * Told the name of each phase of {@link #installWeaver()} as it ends ({@code candidates}: the
     * loaded classes chosen; {@code retransform}: their re-transformation), for the agent's
     * start-up timing. Call before installing.
     */
    public void onPhase(Consumer<String> end) {
        this.phaseEnd = end;
    }

    /** Number of loaded classes chosen for re-transformation by {@link #install()}. */
    public int retransformTotal() {
        return retransformTotal;
    }

    /**
     * Number of loaded classes re-transformed with probes by {@link #install()} (with the Byte Buddy
     * weaver: every class it wove so far, as before).
     */
    public int loadedClassesWoven() {
        return weaver == AgentOptions.Weaver.ASM ? retransformDone.get() - retransformFailed.get() : transformedClasses();
    }

    /** Installs the transformer and re-transforms matching classes that are already loaded. */
    public void install() {
        if (installWeaver()) {
            installByteBuddy();
        }
    }

    /**
     * Woven into the {@link WorkerLoops} methods (trace propagation on): {@code
     * Propagation.workerLoop()} at their entry.
     */
    private static final HookWeaver.Hook CLEAR_AT_LOOP = HookWeaver.Hook.call(
            "(worker loops)", descriptor -> true, "io/sonde/agent/propagation/Propagation", "workerLoop", "()V");

    /**
     * The first half of {@link #install()}: with the ASM weaver, installs its transformer and
     * re-transforms the matching loaded classes. Returns false (and logs why) when no pattern
     * selects anything: then there is nothing to install at all.
     */
    public boolean installWeaver() {
        if (filter.selectsNothing()) {
            AgentLog.info("no include pattern: no method is instrumented (see docs/agent.md)");
            return false;
        }
        if (weaver == AgentOptions.Weaver.ASM) {
            // the worker loops too: Byte Buddy is not even loaded (docs/benchmarks.md, "Attach")
            inst.addTransformer(new AsmTransformer(), true);
            retransformLoaded();
        }
        return true;
    }

    /**
     * The second half of {@link #install()}, after {@link #installWeaver()}: with {@code
     * weaver=bytebuddy}, Byte Buddy's transformer for everything; with the ASM weaver nothing
     * (it weaves the worker loops too).
     */
    public void installByteBuddy() {
        if (filter.selectsNothing() || weaver == AgentOptions.Weaver.ASM) {
            return;
        }
        Advice advice = Advice.withCustomMapping()
                .bind(new ProbeIdMapping(catalog, stats))
                .to(ProbeAdvice.class, agentClasses);
        Advice loopAdvice = Advice.to(io.sonde.agent.propagation.ExecutorAdvice.WorkerLoop.class, agentClasses);
        ElementMatcher<TypeDescription> candidateType = type -> {
            long t0 = stats.start();
            String name = type.getName();
            // names first: isSynthetic() makes the type pool parse the class file
            boolean candidate = (filter.maySelectClass(name) || (clearAtWorkerLoops && WorkerLoops.hasLoops(name)))
                    && !type.isSynthetic();
            stats.end(WeaveStats.Phase.MATCH, t0);
            return candidate;
        };

        // Weaving only visits method bodies, so Byte Buddy need not model the class hierarchy: no
        // method graph over super types (ForDeclaredMethods), no bridges, a frozen instrumented
        // type, and DECORATE (visitors only, the class file otherwise copied). Each of these
        // spares the type pool from reading and parsing the class files of super types.
        // Byte Buddy skips synthetic methods unless told otherwise; lambda bodies are synthetic.
        ByteBuddy byteBuddy = new ByteBuddy()
                .with(TypeValidation.DISABLED)
                .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
                .with(VisibilityBridgeStrategy.Default.NEVER)
                .with(InstrumentedType.Factory.Default.FROZEN)
                .ignore(ElementMatchers.none());
        new AgentBuilder.Default(byteBuddy)
                .disableClassFormatChanges()
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.RedefinitionStrategy.BatchAllocator.ForFixedSize.ofSize(BATCH))
                .with(AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.SinglePass.INSTANCE)
                .with(AgentBuilder.RedefinitionStrategy.Listener.BatchReallocator.splitting())
                .with(new Batches())
                .with(AgentBuilder.Listener.ModuleReadEdgeCompleting.of(inst, false, io.sonde.core.probe.Probes.class))
                .with(new Reporting())
                .with(TimedTransformer.decorator(stats))
                .with(timedLookups(AgentBuilder.LocationStrategy.ForClassLoader.STRONG))
                .ignore((type, loader, module, redefined, pd) -> {
                    long t0 = stats.start();
                    boolean ignored = ignored(type, loader, module, redefined, pd);
                    stats.end(WeaveStats.Phase.MATCH, t0);
                    return ignored;
                })
                .type(candidateType)
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(advice.on(selected(type)))
                        .visit(loopAdvice.on(loops(type))))
                .installOn(inst);
    }

    /**
     * The ASM weaver's share of the classes loaded before the agent: re-transformed in batches of
     * {@link #BATCH}, with the progress reported after each. A batch the JVM refuses (a class that
     * cannot be linked, say its super type's optional dependency is absent) is retried without the
     * class it refused, which is tried alone; those it refuses alone are counted, reported once and
     * left as they are. See {@link #retransform(List)} for how the refused class is found.
     *
     * <p>One thread: two threads sharing the batches (or Byte Buddy set up beside them) made an
     * attach of H2 slower on two cores, not faster (docs/benchmarks.md, "Attach").
     */
    private void retransformLoaded() {
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            // synthetic classes (javac's switch maps and the like) and annotation interfaces have
            // nothing the weaver would change: re-transforming them would only cost the JVM's part
            if (c.isArray() || c.isPrimitive() || c.isHidden() || c.isSynthetic() || c.isAnnotation()) {
                continue;
            }
            ClassLoader loader = c.getClassLoader();
            String name = c.getName();
            if (loader == null || loader == PLATFORM || !asmCandidate(name) || !inst.isModifiableClass(c)) {
                continue;
            }
            todo.add(c);
        }
        retransformTotal = todo.size();
        phaseEnd.accept("candidates");
        if (todo.isEmpty()) {
            return;
        }
        progress.update(0, todo.size());
        retransforming = Thread.currentThread();
        for (List<Class<?>> batch : InitialisedClasses.batches(todo, InitialisedClasses.of(), BATCH)) {
            long t0 = stats.start();
            wovenInBatch.clear();
            retransform(batch);
            stats.end(WeaveStats.Phase.BATCH, t0);
            progress.update(retransformDone.addAndGet(batch.size()), todo.size());
        }
        retransforming = null;
        wovenInBatch.clear();
        phaseEnd.accept("retransform");
    }

    /**
     * Re-transforms one batch. HotSpot takes a batch's classes in order, each through the
     * transformers and then linked (a loaded class may never have been linked), and gives up the
     * whole batch at the first class that fails: so the refused class is, all but surely, the last
     * one the transformer was given. That one is tried alone and the rest of the batch again (two
     * more calls per refused class, where halving the batch took about seven). When the guess is
     * not possible (no class seen) or wrong (the suspect alone is accepted), the batch is split in
     * halves instead, as before.
     */
    private void retransform(List<Class<?>> batch) {
        lastRetransformed = null;
        try {
            inst.retransformClasses(batch.toArray(new Class<?>[0]));
        } catch (Throwable e) { // UnmodifiableClassException, or an error of linking, verifying, ...
            stats.refusedCall();
            if (batch.size() == 1) {
                failed(batch.get(0).getName(), "cannot re-transform ", e);
                retransformFailed.incrementAndGet();
                return;
            }
            Class<?> suspect = lastRetransformed;
            int at = indexOf(batch, suspect);
            if (at >= 0 && refusedAlone(suspect)) {
                List<Class<?>> rest = withoutIndex(batch, at);
                if (!rest.isEmpty()) {
                    retransform(rest);
                }
                return;
            }
            List<Class<?>> others = at >= 0 ? withoutIndex(batch, at) : batch; // a suspect accepted alone is done
            int half = others.size() / 2;
            retransform(others.subList(0, half));
            retransform(others.subList(half, others.size()));
        }
    }

    /**
     * Re-transforms the loaded classes of these binary names (of every application loader) in one
     * {@code retransformClasses} call, so that their code follows the catalogue's
     * {@link ProbeCatalog#woven} (the overhead budget taking probes out, an operator putting them
     * back). A class the JVM refuses is left as it is and reported, as at start-up.
     *
     * @return the number of classes handed to the JVM
     */
    int retransformNamed(Set<String> classNames) {
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            ClassLoader loader = c.getClassLoader();
            if (loader != null && loader != PLATFORM && classNames.contains(c.getName()) && inst.isModifiableClass(c)) {
                todo.add(c);
            }
        }
        if (!todo.isEmpty()) {
            retransform(todo);
        }
        return todo.size();
    }

    /** True when the JVM refuses to re-transform {@code c} on its own (then counted and reported). */
    private boolean refusedAlone(Class<?> c) {
        try {
            inst.retransformClasses(c);
            return false;
        } catch (Throwable e) {
            stats.refusedCall();
            failed(c.getName(), "cannot re-transform ", e);
            retransformFailed.incrementAndGet();
            return true;
        }
    }

    private static int indexOf(List<Class<?>> batch, Class<?> c) {
        for (int i = c == null ? batch.size() : 0; i < batch.size(); i++) {
            if (batch.get(i) == c) {
                return i;
            }
        }
        return -1;
    }

    private static List<Class<?>> withoutIndex(List<Class<?>> batch, int at) {
        List<Class<?>> rest = new ArrayList<>(batch.subList(0, at));
        rest.addAll(batch.subList(at + 1, batch.size()));
        return rest;
    }

    /** Classes the ASM weaver considers: not ignored by name, and maybe selected or with worker loops to clear. */
    private boolean asmCandidate(String name) {
        return !ignoredName(name) && (filter.maySelectClass(name) || (clearAtWorkerLoops && WorkerLoops.hasLoops(name)));
    }

    /** Counts and reports a class that cannot be woven, once per class. */
    private void failed(String className, String what, Throwable error) {
        if (failedClasses.add(className)) {
            stats.failed(className, error);
            AgentLog.info(what + className + ", leaving it alone: " + error);
            if (verbose) {
                error.printStackTrace();
            }
        }
    }

    /** The module Sonde's classes are in (the bootstrap loader's unnamed module). */
    private static final Module SONDE_MODULE = io.sonde.core.probe.Probes.class.getModule();

    /**
     * The ASM weaver's class-file transformer ({@link ProbeWeaver}): decides by name first, so a
     * class no pattern can select costs a few string comparisons.
     */
    private final class AsmTransformer implements ClassFileTransformer {
        private final ProbeWeaver.Probes probes = new ProbeWeaver.Probes() {
            @Override
            public int probeFor(String name, String signature) {
                long t0 = stats.start();
                int id = catalog.probeFor(name, signature);
                stats.end(WeaveStats.Phase.PROBE_IDS, t0);
                return id;
            }

            @Override
            public boolean weaves(String name, int codeBytes) {
                return catalog.woven(name, codeBytes);
            }
        };

        @Override
        public byte[] transform(Module module, ClassLoader loader, String internalName, Class<?> redefined,
                ProtectionDomain domain, byte[] classFile) {
            boolean attachBatch = redefined != null && Thread.currentThread() == retransforming;
            if (attachBatch) {
                lastRetransformed = redefined; // the suspect if the JVM refuses the batch
                byte[] again = wovenInBatch.get(redefined);
                if (again != null && !catalog.anyRemovedFromCode()) { // same class file, same catalogue
                    return again == PASSED ? null : again;
                }
            }
            if (internalName == null || loader == null || loader == PLATFORM) {
                return null;
            }
            String name = internalName.replace('/', '.');
            if (!asmCandidate(name)) {
                return null;
            }
            long cpu0 = stats.cpuStart(); // for the overhead budget: weaving is the agent's time, not the application's
            try {
                byte[] woven = weave(module, internalName, name, redefined, classFile);
                if (attachBatch) {
                    wovenInBatch.put(redefined, woven == null ? PASSED : woven);
                }
                return woven;
            } finally {
                stats.cpuEnd(cpu0);
            }
        }

        private byte[] weave(Module module, String internalName, String name, Class<?> redefined, byte[] classFile) {
            long t0 = System.nanoTime();
            byte[] woven;
            try {
                woven = ProbeWeaver.weave(classFile, name, filter, probes, clearAtWorkerLoops ? CLEAR_AT_LOOP : null);
                if (woven != null && module != null && module.isNamed() && !module.canRead(SONDE_MODULE)) {
                    inst.redefineModule(module, Set.of(SONDE_MODULE), Map.of(), Map.of(), Set.of(), Map.of());
                }
            } catch (Throwable e) { // never let a class fail to load because of the agent
                failed(name, "cannot instrument ", e);
                return null;
            }
            if (woven == null) {
                stats.end(WeaveStats.Phase.TRANSFORM_PASSED, t0);
                return null;
            }
            stats.woven(internalName, System.nanoTime() - t0);
            stats.end(WeaveStats.Phase.TRANSFORM_WOVEN, t0);
            transformedClasses.incrementAndGet();
            if (verbose) {
                AgentLog.info((redefined != null ? "re-transformed " : "instrumented ") + name);
            }
            return woven;
        }
    }

    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
    // Sonde's own classes need no name rule: they are on the bootstrap class path, so every
    // loader that delegates finds them there (loader == null below).
    private static final String[] IGNORED_PREFIXES = {
        "io.sonde.agent.shaded.", "net.bytebuddy.", "java.", "javax.", "jdk.", "sun.", "com.sun.",
    };

    /** Never woven: classes of the JDK's loaders (and Sonde's), Byte Buddy's. Names only, no parsing. */
    private static boolean ignored(
            TypeDescription type, ClassLoader loader, JavaModule module, Class<?> redefined, java.security.ProtectionDomain pd) {
        if (loader == null || loader == PLATFORM) {
            return true;
        }
        return ignoredName(type.getName());
    }

    private static boolean ignoredName(String name) {
        for (String prefix : IGNORED_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Class-file look-ups of the type resolution, timed when {@link WeaveStats} is on. */
    private AgentBuilder.LocationStrategy timedLookups(AgentBuilder.LocationStrategy strategy) {
        if (!stats.on()) {
            return strategy;
        }
        return (loader, module) -> {
            ClassFileLocator locator = strategy.classFileLocator(loader, module);
            return new ClassFileLocator() {
                @Override
                public Resolution locate(String name) throws java.io.IOException {
                    long t0 = stats.start();
                    try {
                        return locator.locate(name);
                    } finally {
                        stats.end(WeaveStats.Phase.LOOKUP, t0);
                    }
                }

                @Override
                public void close() throws java.io.IOException {
                    locator.close();
                }
            };
        };
    }

    /** Number of classes woven so far. */
    public int transformedClasses() {
        return transformedClasses.get();
    }

    /** Methods that get a probe: selected by the patterns, with a body, and not a worker loop. */
    private ElementMatcher<MethodDescription> selected(TypeDescription type) {
        String className = type.getName();
        return isMethod()
                .and(not(isAbstract()))
                .and(not(isNative()))
                .and(not(isBridge()))
                .and(m -> filter.selects(className, m.getInternalName()))
                .and(m -> catalog.woven(className + "." + m.getInternalName()))
                .and(m -> !WorkerLoops.isLoop(className, m.getInternalName()));
    }

    /** The worker-loop methods of the type that get the clearing advice. */
    private ElementMatcher<MethodDescription> loops(TypeDescription type) {
        String className = type.getName();
        return isMethod()
                .and(not(isAbstract()))
                .and(m -> clearAtWorkerLoops && WorkerLoops.isLoop(className, m.getInternalName()));
    }

    /** Reports the progress of each {@code retransformClasses} batch, and times it. */
    private final class Batches extends AgentBuilder.RedefinitionStrategy.Listener.Adapter {
        private long batchStart;
        private int batchSize;
        private int done;

        @Override
        public void onBatch(int index, java.util.List<Class<?>> batch, java.util.List<Class<?>> types) {
            endBatch();
            retransformTotal = types.size();
            progress.update(Math.min(done, types.size()), types.size()); // a split batch is retried: done may pass it
            batchStart = stats.start();
            batchSize = batch.size();
        }

        @Override
        public void onComplete(int amount, java.util.List<Class<?>> types,
                java.util.Map<java.util.List<Class<?>>, Throwable> failures) {
            endBatch();
            progress.update(types.size(), types.size());
        }

        private void endBatch() {
            if (batchSize > 0) {
                stats.end(WeaveStats.Phase.BATCH, batchStart);
                done += batchSize;
                batchSize = 0;
            }
        }
    }

    /** Logs each class that cannot be woven once, and counts the ones that were. */
    private final class Reporting extends AgentBuilder.Listener.Adapter {
        @Override
        public void onTransformation(
                TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded, DynamicType dynamicType) {
            transformedClasses.incrementAndGet();
            if (verbose) {
                AgentLog.info((loaded ? "re-transformed " : "instrumented ") + type.getName());
            }
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
            failed(typeName, "cannot instrument ", error);
        }
    }
}
