package io.sonde.agent.budget;

import io.sonde.agent.AgentLog;
import io.sonde.agent.instrument.ProbeCatalog;
import io.sonde.agent.instrument.WeaveStats;
import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.pipeline.Pipeline;
import io.sonde.core.pipeline.ProbeTally;
import io.sonde.core.pipeline.RecordCounts;
import io.sonde.format.Format;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The overhead budget ({@code budget=PERCENT}): on a daemon thread of its own ("sonde-budget"),
 * never on the probe path, it compares what monitoring cost with the application's own CPU time
 * (first after {@value #FIRST_INTERVAL_MS} ms, then at intervals doubling up to {@code
 * budget.interval.ms}; an interval ends early when the program's activity jumps, {@link
 * #awaitIntervalEnd}), and when over budget switches off the probes that cost most and tell least
 * ({@link BudgetPolicy}), in steps, one step per interval, until under. Switched off means taken
 * out of the code: the classes that hold them are re-transformed without them, in one batch per
 * step ({@link ProbeCatalog#removeFromCode}); left in the code, a switched-off probe's woven method
 * still loses its inlining, which on a library of methods of a few nanoseconds costs far more than
 * a budget of a few percent. Only a small step (its probes costing under {@value #KEPT_SHARE} of
 * the budget) switches off without re-transforming: a re-transformation makes the JIT compile the
 * classes and their callers again, and a step that re-transforms later takes those probes out of
 * the classes it re-transforms anyway.
 *
 * <p>The estimate per interval: each execution costs the application's threads what the steps'
 * natural experiments measured ({@link ExecutionCost}; until one counts, the calibrated cost of an
 * enter+exit pair, {@link PairCost}) plus the writer thread's CPU time per execution (measured:
 * its CPU time over the executions it drained, taken from intervals with at least {@value
 * #WRITER_SAMPLE} executions and kept until the next such interval); executions are counted per
 * probe by the writer thread ({@link ProbeTally}) and scaled by the records made over the records
 * drained in the interval (a lagging writer). That cost of the executions is what the budget
 * compares and what switching probes off reduces; what the agent costs regardless (the writer's
 * idle polling, this thread) is not put on any probe's account, nor are records of probes already
 * off that the writer drains late. The application's CPU time is its Java threads' ({@link
 * ThreadsCpu}: not the JIT compiler's or the garbage collector's) other than the writer and this
 * one, minus the weaver's CPU time on them and the estimated probe path. After a step the
 * intervals start again at {@value #FIRST_INTERVAL_MS} ms; a short interval switches only on a
 * cost above twice the budget, a smaller excess waits for a full-length one (few, large steps).
 *
 * <p>The last {@value #HISTORY} intervals' inputs are kept for the counters ({@code
 * budget.interval ...}), so that an estimate can be checked against what a benchmark measured.
 *
 * <p>Every switch is recorded: an event {@value #EVENT} in the log (fields probe, reason,
 * executions, share, mean_ns, depth, overhead), one line on stderr per step, and lines in the
 * agent's counters ({@code sonde probes status}). A probe matching {@code budget.pin} is never
 * switched off. The budget switches off only; an operator may switch a probe on again (JMX), and
 * the budget then judges it afresh.
 *
 * <p>Two switches need no interval: trivial methods are left out when first woven ({@link
 * TrivialMethods}, {@code budget.trivial}), and with {@code budget.state=FILE} what an earlier run
 * switched off is left out from the start ({@link BudgetState}); both are recorded like any other.
 */
public final class BudgetController implements Runnable {
    /** Name of the event type recording each switch. */
    public static final String EVENT = "sonde.budget.switch";
    /** Executions an interval needs before it gives a new writer cost per execution. */
    static final long WRITER_SAMPLE = 10_000;
    /** Records an interval must have made before it may end early ({@link #awaitIntervalEnd}): two per execution of the writer sample. */
    static final long LIVELIER_RECORDS = 2 * WRITER_SAMPLE;
    /**
     * The first interval (ms), when {@code budget.interval.ms} is longer: each next one is twice
     * as long, up to {@code budget.interval.ms}. At the probe path's tens of nanoseconds per
     * execution a busy thread makes millions of executions in 100 ms, far more than the
     * {@value #WRITER_SAMPLE} a stable estimate needs, while a short program (H2's workload of
     * 2.5 s) would have run most of its course before a first decision after a second.
     */
    static final long FIRST_INTERVAL_MS = 100;
    private static final String[] FIELDS = {"probe", "reason", "executions", "share", "mean_ns", "depth", "overhead"};
    private static final byte[] TYPES = {Format.FIELD_STRING, Format.FIELD_STRING, Format.FIELD_LONG, Format.FIELD_DOUBLE,
        Format.FIELD_LONG, Format.FIELD_DOUBLE, Format.FIELD_DOUBLE};

    /**
     * The most probes switched off but left in the code may cost, as a fraction of the budget (of
     * the application's CPU time, at their rates when switched off, each execution counted at the
     * cost of a recorded one). A step whose probes fit under it switches them off without
     * re-transforming their classes: a re-transformation throws away the compiled code of the
     * classes and of what inlined them, and on H2 the JIT's recompiling, not the probes left on,
     * was most of the settled excess (docs/benchmarks.md, "What the settled excess is made of").
     * Declared, not fitted: a tenth of the budget, so that the probes left on keep nine tenths.
     */
    static final double KEPT_SHARE = 0.1;
    /** Intervals whose estimate inputs the counters keep. */
    static final int HISTORY = 24;

    /** A step's experiment: the interval before it, which probe ids stayed on, and the judged intervals after it. */
    private static final class Experiment {
        final ExecutionCost.Before before;
        final boolean[] stayedIds;
        /** Midpoint (nanoTime) of the interval before the step. */
        final long middle;
        long cpuAfter;
        long stayedAfter;
        long afterStart = -1;

        Experiment(ExecutionCost.Before before, boolean[] stayedIds, long middle) {
            this.before = before;
            this.stayedIds = stayedIds;
            this.middle = middle;
        }
    }

    /** One probe the budget switched off, as reported. */
    record Switch(String probe, long executions, double share, double meanNanos, double depth, double overhead) {}

    private final BudgetSettings settings;
    private final Pipeline pipeline;
    private final ProbeCatalog catalog;
    private final ProbeTally tally;
    private final com.sun.management.ThreadMXBean threads;
    /** Every switch, with its reason as the state file keeps it (an earlier run's, for one restored). */
    private final List<BudgetState.Entry> switched = new CopyOnWriteArrayList<>();
    /** The switches restored from the state file, recorded as events once the budget thread has its ring. */
    private List<BudgetState.Entry> restored = List.of();
    /** The cost per execution earlier runs measured, from the state file; null when none. */
    private BudgetState.Measured restoredCost;
    /** What became of {@code budget.state} (the counters' line); null when not set. */
    private volatile String stateStatus;
    /** The state file's last writing (the counters' line); null until a step writes it. */
    private volatile String stateSaved;
    /** False when the state file must not be written: it exists but could not be read (it is the operator's). */
    private boolean stateWritable = true;
    /** The trivial-method rule ({@code budget.trivial}). */
    private final TrivialMethods trivial;
    private boolean stateWriteFailed;
    private volatile double pairNanos = Double.NaN;
    /**
     * What the probes switched off but left in the code cost, as a share of the application's CPU
     * time (summed over the steps that left them, at their rates then).
     */
    private volatile double keptShare;
    /** The probes switched off but left in the code, with their share (of the application's CPU time) when left. */
    private final Map<String, Double> kept = new LinkedHashMap<>();
    private volatile int keptInCode;
    private volatile double overheadPercent = Double.NaN;
    /** Writer thread CPU per drained execution (ns), from the last interval with enough executions. */
    private volatile double writerNanos;
    private volatile String state = "calibrating";
    /** The application threads' cost per execution, measured by the steps' experiments. */
    private volatile ExecutionCost cost;
    /** A judged interval without a step: the reference of the program's own drift for a step in the next one. */
    private record Judged(ProbeTally.Totals start, ProbeTally.Totals end, long cpu, double made, long middle) {}

    private Judged judged;
    private long markedAt;
    /** The last step's experiment, until the next judged interval measures it. */
    private Experiment experiment;
    private double lastMeasured = Double.NaN;
    private final List<String> history = new ArrayList<>();
    private volatile int classesRewoven;
    private volatile long rewovenMillis;
    /** This thread's CPU time so far (ns): calibrating, deciding and re-transforming. */
    private volatile long ownCpu;

    // interval state (budget thread only)
    private ProbeTally.Totals previous;
    private ThreadsCpu applicationCpu;
    private final LongSupplier weavingNanos;
    private long previousWeaving;
    private long previousWriter;
    private long previousProduced;
    private long previousDrained;
    private ThreadBuffer events;
    private int eventType;
    private int eventBytes;
    /** True for the interval after a switch: records drained late still show the old probes' cost. */
    private boolean settling;
    /** The length of the interval being judged (ms), for the reasons. */
    private long intervalMillis;
    /** Records made per nanosecond in the last interval (all probes, ENTER and EXIT). */
    private double lastRecordsPerNano;
    /** True while the interval being judged ended early (its counters' line says so; the next starts short). */
    private boolean endedEarly;

    private BudgetController(BudgetSettings settings, Pipeline pipeline, ProbeCatalog catalog,
            com.sun.management.ThreadMXBean threads, LongSupplier weavingNanos) {
        this.weavingNanos = weavingNanos;
        this.settings = settings;
        this.pipeline = pipeline;
        this.catalog = catalog;
        this.threads = threads;
        this.tally = pipeline.enableProbeTally();
        this.trivial = new TrivialMethods(settings::pinned);
    }

    /**
     * Starts the budget if the pipeline's configuration sets one; returns null otherwise, or when
     * this JVM cannot tell its threads' CPU time (then says so on stderr).
     */
    public static BudgetController startIfConfigured(Pipeline pipeline, ProbeCatalog catalog, WeaveStats weaving) {
        BudgetSettings s = BudgetSettings.of(pipeline.config());
        if (s == null) return null;
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!(mx instanceof com.sun.management.ThreadMXBean threads) || !mx.isThreadCpuTimeSupported()) {
            AgentLog.info("budget=" + s.percent() + " ignored: this JVM does not report its threads' CPU time");
            return null;
        }
        if (!mx.isThreadCpuTimeEnabled()) mx.setThreadCpuTimeEnabled(true);
        weaving.measureCpu(threads);
        BudgetController c = new BudgetController(s, pipeline, catalog, threads, weaving::weavingCpuNanos);
        c.restore(); // before the weaver starts: the probes learned earlier are never woven
        if (s.trivial()) catalog.onFirstWeave(c.trivial);
        Thread t = new Thread(c, "sonde-budget");
        t.setDaemon(true);
        t.start();
        return c;
    }

    @Override
    public void run() {
        try {
            pairNanos = PairCost.calibrate();
            cost = new ExecutionCost(pairNanos);
            cost.restore(restoredCost);
            openEvents();
            for (BudgetState.Entry e : restored) record(e.figures(), e.reason());
            restored = List.of();
            switchOffLeftOut();
            mark(tally.snapshot());
            state = "on";
            long first = Math.min(FIRST_INTERVAL_MS, settings.intervalMillis());
            intervalMillis = first;
            while (!pipeline.isClosed()) {
                awaitIntervalEnd(first);
                if (pipeline.isClosed()) break;
                step();
                // after a step, short intervals again: the late records drain and the JIT recompiles
                // in the first, the second judges the new state (and measures the step) early; the
                // same when the program's activity jumped: its new work is judged at short intervals
                intervalMillis = settling || endedEarly ? first : Math.min(2 * intervalMillis, settings.intervalMillis());
                endedEarly = false;
            }
            state = "stopped (monitor closed)";
        } catch (InterruptedException e) {
            state = "stopped (interrupted)";
        } catch (RuntimeException | LinkageError e) {
            state = "stopped by an error: " + e;
            AgentLog.info("the overhead budget stopped: " + e);
        }
    }

    /**
     * Sleeps until the interval of {@link #intervalMillis} started at the last mark ends, or ends it
     * early ({@link #endedEarly}, and {@link #intervalMillis} then its real length). A longer
     * interval is looked at every {@code first} ms and ends there when records have been made in it at more than twice the rate of the interval before
     * (at least {@value #LIVELIER_RECORDS} of them): the program's activity jumped. Without this, a
     * program that starts its work after a quiet start-up (the intervals doubled while it loaded its
     * classes) would run its first long interval with every probe on before a first decision: on
     * H2, 800 ms at 56 % of its CPU time. Twice the rate is the factor by which the intervals grow.
     */
    private void awaitIntervalEnd(long first) throws InterruptedException {
        long start = markedAt;
        long until = start + TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        long look = TimeUnit.MILLISECONDS.toNanos(first);
        while (true) {
            long now = System.nanoTime();
            if (now - until >= 0) return;
            TimeUnit.NANOSECONDS.sleep(Math.min(until - now, look));
            if (pipeline.isClosed() || intervalMillis <= first) continue;
            long elapsed = System.nanoTime() - start;
            if (elapsed <= 0 || until - System.nanoTime() <= 0) continue;
            long made = pipeline.counters().produced() - previousProduced;
            if (made >= LIVELIER_RECORDS && made / (double) elapsed > 2 * lastRecordsPerNano) {
                intervalMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(elapsed));
                endedEarly = true;
                return;
            }
        }
    }

    /** The budget thread's own ring, for the switch events; it bypasses the thread filter on purpose. */
    private void openEvents() {
        events = pipeline.newBuffer(Thread.currentThread());
        eventType = pipeline.registry().eventType(EVENT, TYPES, FIELDS);
        int bytes = Format.EVENT_HEADER_BYTES;
        for (byte t : TYPES) bytes += Format.fieldBytes(t);
        eventBytes = bytes;
    }

    private void mark(ProbeTally.Totals now) {
        previous = now;
        markedAt = System.nanoTime();
        ownCpu = threads.getCurrentThreadCpuTime();
        if (applicationCpu == null) applicationCpu = new ThreadsCpu(threads);
        applicationCpu.sinceLast();
        previousWeaving = weavingNanos.getAsLong();
        previousWriter = Math.max(0, threads.getThreadCpuTime(pipeline.writerThreadId()));
        RecordCounts counts = pipeline.counters();
        previousProduced = counts.produced();
        previousDrained = counts.written() + counts.dropped();
    }

    /** Switches off and records the trivial methods the weaver left out since the last call (budget thread). */
    private void switchOffLeftOut() {
        Map<String, String> left = trivial.drain();
        if (left.isEmpty()) return;
        Map<String, String> rules = new LinkedHashMap<>();
        left.forEach((name, reason) -> rules.put(name, "switched off by the overhead budget and " + reason));
        catalog.switchOff(rules, ProbeCatalog.Origin.BUDGET);
        left.forEach((name, reason) -> {
            // no execution measured: executions, share, depth and overhead 0, mean unknown (-1)
            Switch s = new Switch(name, 0, 0, -1, 0, 0);
            switched.add(new BudgetState.Entry(s, reason));
            record(s, rules.get(name));
        });
        saveState();
    }

    /** One interval: estimate, compare, and switch off what the policy picks. */
    void step() {
        switchOffLeftOut();
        ProbeTally.Totals now = tally.snapshot();
        ProbeTally.Totals before = previous;
        long javaThreads = applicationCpu.sinceLast(pipeline.writerThreadId(), Thread.currentThread().getId());
        long weaving = weavingNanos.getAsLong() - previousWeaving; // the agent's, on the threads that load classes
        long writer = Math.max(0, threads.getThreadCpuTime(pipeline.writerThreadId())) - previousWriter;
        RecordCounts counts = pipeline.counters();
        long produced = counts.produced() - previousProduced;
        long drained = counts.written() + counts.dropped() - previousDrained;
        long start = markedAt;
        mark(now);
        long end = markedAt;
        lastRecordsPerNano = Math.max(0, produced) / (double) Math.max(1, end - start);
        long appThreads = Math.max(0, javaThreads - weaving); // the application's threads, probe path included

        long total = 0; // every execution drained: the writer's CPU time went to all of them
        long live = 0; // those of probes still on: what switching off can still reduce
        for (int id = 0; id < now.size(); id++) {
            long e = delta(now.executions(), before.executions(), id);
            total += e;
            if (e > 0 && catalog.isEnabled(id)) live += e;
        }
        if (total >= WRITER_SAMPLE) writerNanos = Math.max(0, writer) / (double) total;
        // The tally counts executions as the writer drains them, the CPU time is of what the
        // threads did: a writer lagging behind (a loaded machine) counts in this interval records
        // made in the last one. Records made per record drained scales the counts to the interval.
        if (drained <= 0 && produced > 0) {
            note(appThreads, weaving, writer, total, live, Double.NaN, Double.NaN, Double.NaN, 0, "writer behind");
            return; // nothing drained of what was made: judged at the next interval
        }
        // The pipeline counts a record drained when its frame is written, which at the first records
        // (a frame not yet full, waiting for its flush) lags behind what the writer has parsed: the
        // tally's executions, each an ENTER and (but for the few still running) an EXIT, are drained
        // records too. Without this floor a run's first records once gave made/drained = 478 and a
        // cold probe switched off at "748 %".
        long drainedAtLeast = Math.max(drained, 2 * total);
        double made = drainedAtLeast <= 0 ? 1 : produced / (double) drainedAtLeast;
        if (appThreads < settings.percent() / 100 * (end - start)) {
            // The application's threads used less CPU than the budget's share of one core: an idle
            // program (or one ending: its last thread gone, the writer draining what it made
            // before), whose monitoring costs less than the budget allows a busy one, and whose own
            // time is too small to judge a share against (a cold probe was once switched off at
            // "390615456 % of the application's CPU time" at a program's end). Not judged.
            judged = null;
            note(appThreads, weaving, writer, total, live, made, cost.nanos(), Double.NaN, 0, "idle: not judged");
            return;
        }
        if (experiment != null && !settling) {
            // the judged intervals after a step: what the removed probes really cost
            long stayed = executionsOf(experiment.stayedIds, now, before);
            experiment.stayedAfter += Math.round(stayed * made);
            experiment.cpuAfter += appThreads;
            if (experiment.afterStart < 0) experiment.afterStart = start;
            if (experiment.stayedAfter >= ExecutionCost.MIN_EXECUTIONS) {
                long afterGap = (experiment.afterStart + end) / 2 - experiment.middle;
                lastMeasured = cost.observe(experiment.before, experiment.cpuAfter, experiment.stayedAfter, afterGap);
                experiment = null;
                if (!Double.isNaN(lastMeasured)) saveState(); // the next start judges at the measured cost
            }
        }
        double perExecution = cost.nanos(); // on the application's threads
        double unit = perExecution + writerNanos; // what one execution costs the process
        // records of probes already off, drained late, are a cost past: not counted against the rest
        // plus the probes switched off but left in the code (not in the tally)
        double executions = live * made * unit + Math.max(0, appThreads - total * made * perExecution) * keptShare;
        // the application's own CPU time: its threads' less the probe path on them (with the
        // calibrated pair if the measured cost leaves none)
        double application = appThreads - total * made * perExecution;
        if (application <= 0) application = appThreads - total * made * pairNanos;
        double b = settings.percent() / 100;
        double excess;
        String remark = "";
        if (application > 0) {
            overheadPercent = 100 * executions / application;
            // Cost and application time both scale with the work done in the interval: switching
            // probes off that cost X (in this interval's work) leaves C - X per the same work, whose
            // own CPU time is A however fast it then runs. Under budget once C - X <= b A.
            excess = executions - b * application;
        } else {
            // The probe path took, by the estimate, all of the application's CPU time: its own time
            // is too small to measure, so how much may stay is unknown. The step takes the bulk,
            // all but the budget's share of the cost, and the next interval (with an own time
            // then measurable) judges the rest. The overhead shown is against all of the
            // application threads' time, a lower bound.
            overheadPercent = 100 * executions / Math.max(1, appThreads);
            excess = (1 - b) * executions;
            application = 0;
            remark = "own time not measurable";
        }
        if (settling) {
            settling = false; // judged afresh from the next interval, which has only the new state
            judged = null; // recompiling: no reference for the program's own drift
            note(appThreads, weaving, writer, total, live, made, perExecution, application, 0, "settling");
            return;
        }
        // A short interval (the first ones, and those after a step) decides only on a large excess,
        // more than the budget again: its estimate carries the records drained late, the writer's
        // lag and the JIT recompiling, and a step costs a re-transformation. A smaller excess is
        // left to the full-length intervals, so that the steps are few and large.
        boolean shortInterval = intervalMillis < settings.intervalMillis();
        if (excess <= 0 || live == 0 || (shortInterval && application > 0 && executions <= 2 * b * application)) {
            note(appThreads, weaving, writer, total, live, made, perExecution, application, 0, remark);
            judged = new Judged(before, now, appThreads, made, (start + end) / 2);
            return;
        }

        List<ProbeLoad> candidates = candidates(now, before, made * unit);
        List<ProbeLoad> off = BudgetPolicy.choose(candidates, excess, pairNanos);
        note(appThreads, weaving, writer, total, live, made, perExecution, application, off.size(), remark);
        if (off.isEmpty()) {
            state = "on; over budget, but every probe still on is pinned";
            return;
        }
        double overhead = overheadPercent;
        List<String> names = new ArrayList<>();
        Map<String, String> why = new LinkedHashMap<>();
        List<Switch> step = new ArrayList<>();
        for (ProbeLoad p : off) {
            Switch s = new Switch(p.name(), p.executions(), 100 * p.costNanos() / executions, p.meanNanos(), p.meanDepth(), overhead);
            why.put(p.name(), reason(s));
            step.add(s);
            names.add(p.name());
        }
        // off at once (the switch check), then out of the code: left in it, a switched-off probe's
        // woven method still loses its inlining, far more than 5 % of a method of a few ns; unless
        // the step is small enough to leave in the code, as a re-transformation makes the JIT
        // compile the classes and their callers again
        double leftCost = leftInCodeShare(off, made * perExecution, application);
        boolean keep = keepInCode(keptShare, leftCost, b);
        Map<String, String> rules = new LinkedHashMap<>();
        why.forEach((name, reason) -> rules.put(name, keep
                ? "switched off by the overhead budget, left in the code (a small step: cheaper than a re-transformation): " + reason
                : "switched off by the overhead budget and taken out of the code: " + reason));
        catalog.switchOff(rules, ProbeCatalog.Origin.BUDGET);
        for (Switch s : step) {
            switched.add(new BudgetState.Entry(s, why.get(s.probe())));
            record(s, why.get(s.probe()));
        }
        saveState(); // before the re-transformation, which a short program may not outlive
        experiment = experiment(now, before, appThreads, live, made, start, end);
        int classes = keep ? leaveInCode(off, leftCost) : takeOutOfCode(names);
        // the re-transformation's CPU on this thread (and the state file's writing) is not the
        // application's: start afresh after it
        mark(tally.snapshot());
        settling = true;
        AgentLog.info(String.format(Locale.ROOT, "budget: monitoring cost %.1f %% of the application's CPU time, budget %s %%;"
                + " switched off %d probe(s): %s; %s", overhead, trim(settings.percent()),
                off.size(), names.size() <= 5 ? String.join(", ", names) : String.join(", ", names.subList(0, 5))
                        + " and " + (names.size() - 5) + " more", keep
                        ? String.format(Locale.ROOT, "left in the code (at most %.3f %% of the application's CPU time; cheaper than re-transforming)", 100 * leftCost)
                        : "taken out of the code of " + classes + " class(es)"));
    }

    /** A small step's probes stay in the code, switched off: their cost ({@code leftCost}) is shared out by executions. Returns 0 classes. */
    private int leaveInCode(List<ProbeLoad> off, double leftCost) {
        keptShare += leftCost;
        long stepExecutions = Math.max(1, sum(off));
        for (ProbeLoad p : off) kept.put(p.name(), leftCost * p.executions() / stepExecutions);
        keptInCode = kept.size();
        return 0;
    }

    /**
     * One re-transformation for the whole step, with the probes left in the code earlier whose
     * classes it re-transforms anyway; returns the classes re-transformed.
     */
    private int takeOutOfCode(List<String> names) {
        long t0 = System.nanoTime();
        int classes = catalog.removeFromCode(withKeptOfSameClasses(names, kept, this::stillOff));
        keptShare = 0;
        for (double share : kept.values()) keptShare += share;
        keptInCode = kept.size();
        rewovenMillis += TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        classesRewoven += classes;
        return classes;
    }

    /**
     * What the step's probes would cost left in the code, switched off, as a share of the
     * application's CPU time: their executions (scaled to the interval) times {@code nanos}, the
     * cost of a recorded execution on the application's threads. Not the switch check alone
     * (under a nanosecond): a woven method stays as large when its probe is off, so a tiny method
     * still loses its inlining, and on H2 leaving every switched-off probe in the code took the
     * workload thread 2.5 times its CPU time without the agent (docs/benchmarks.md, "What the
     * settled excess is made of"). Infinite when the application's own time is not measurable (then they leave the code).
     */
    private static double leftInCodeShare(List<ProbeLoad> off, double nanos, double application) {
        if (!(application > 0)) return Double.POSITIVE_INFINITY;
        return sum(off) * nanos / application;
    }

    private static long sum(List<ProbeLoad> loads) {
        long n = 0;
        for (ProbeLoad p : loads) n += p.executions();
        return n;
    }

    /**
     * {@code names} and the probes left in the code by earlier steps ({@code kept}, removed from
     * it) whose classes {@code names} re-transform anyway: they leave the code for free, unless
     * an operator switched them on again ({@code stillOff} false; they stay in {@code kept}).
     */
    static List<String> withKeptOfSameClasses(List<String> names, Map<String, Double> kept,
            Predicate<String> stillOff) {
        Set<String> classes = new HashSet<>();
        for (String n : names) classes.add(classOf(n));
        List<String> out = new ArrayList<>(names);
        for (Iterator<String> it = kept.keySet().iterator(); it.hasNext(); ) {
            String k = it.next();
            if (!classes.contains(classOf(k)) || !stillOff.test(k)) continue;
            out.add(k);
            it.remove();
        }
        return out;
    }

    private boolean stillOff(String name) {
        for (ProbeCatalog.Probe p : catalog.matching(name)) {
            if (p.name().equals(name) && catalog.isEnabled(p.id())) return false;
        }
        return true;
    }

    static String classOf(String probeName) {
        return probeName.substring(0, Math.max(0, probeName.lastIndexOf('.')));
    }

    /**
     * True when a step's probes may stay in the code switched off: what all probes left so far
     * cost, with this step's ({@code leftCost}; shares of the application's CPU time), within
     * {@link #KEPT_SHARE} of the budget {@code budget} (a fraction).
     */
    static boolean keepInCode(double keptShare, double leftCost, double budget) {
        return leftCost >= 0 && keptShare + leftCost <= KEPT_SHARE * budget;
    }

    /**
     * The step as an experiment ({@link ExecutionCost}): the probes executed in the interval that
     * stayed on (those switched off are already off), and the interval's figures; null when the
     * step is too small to measure anything (a pending experiment is dropped either way).
     */
    private Experiment experiment(ProbeTally.Totals now, ProbeTally.Totals before, long appThreads, long live, double made,
            long start, long end) {
        boolean[] stayedIds = new boolean[now.size()];
        long stayed = 0;
        for (int id = 0; id < now.size(); id++) {
            long e = delta(now.executions(), before.executions(), id);
            if (e > 0 && catalog.isEnabled(id)) {
                stayedIds[id] = true;
                stayed += e;
            }
        }
        // the judged interval just before, if contiguous and all probes on: the program's own drift
        double earlier = Double.NaN;
        long gap = 0;
        Judged j = judged;
        if (j != null && j.end() == before) {
            double scaled = executionsOf(stayedIds, j.end(), j.start()) * j.made();
            if (scaled >= ExecutionCost.MIN_EXECUTIONS) {
                earlier = j.cpu() / scaled;
                gap = (start + end) / 2 - j.middle();
            }
        }
        ExecutionCost.Before figures = new ExecutionCost.Before(appThreads, Math.round(stayed * made),
                Math.round((live - stayed) * made), earlier, gap);
        return cost.measurable(figures) ? new Experiment(figures, stayedIds, (start + end) / 2) : null;
    }

    /** Executions between {@code start} and {@code end} of the probes {@code ids} marks. */
    private static long executionsOf(boolean[] ids, ProbeTally.Totals end, ProbeTally.Totals start) {
        long n = 0;
        for (int id = 0; id < ids.length && id < end.size(); id++) {
            if (ids[id]) n += delta(end.executions(), start.executions(), id);
        }
        return n;
    }

    /** Keeps one line of the estimate's inputs for the counters (the last {@value #HISTORY}). */
    private void note(long appThreads, long weaving, long writer, long total, long live, double made, double perExecution,
            double application, int switchedOff, String remark) {
        String line = String.format(Locale.ROOT, "budget.interval ms=%d app.cpu.ms=%.1f weaving.ms=%.1f writer.ms=%.1f"
                + " executions=%d live=%d made/drained=%.2f app.ns=%.1f writer.ns=%.1f measured.ns=%.1f base.ms=%.1f overhead=%.2f%% off=%d %s",
                intervalMillis, appThreads / 1e6, weaving / 1e6, writer / 1e6, total, live, made, perExecution, writerNanos,
                lastMeasured, application / 1e6, overheadPercent, switchedOff,
                endedEarly ? ("ended early: activity jumped " + remark) : remark).strip();
        lastMeasured = Double.NaN;
        synchronized (history) {
            if (history.size() == HISTORY) history.remove(0);
            history.add(line);
        }
    }

    /** The probes the budget may switch off, grouped by name (a switch goes by name, overloads included). */
    private List<ProbeLoad> candidates(ProbeTally.Totals now, ProbeTally.Totals before, double nanosPerExecution) {
        Map<String, long[]> byName = new LinkedHashMap<>(); // executions, completed, nanos, depths
        for (ProbeCatalog.Probe p : catalog.matching("*")) {
            int id = p.id();
            if (id >= now.size() || !catalog.isEnabled(id) || settings.pinned(p.name())) continue;
            long e = delta(now.executions(), before.executions(), id);
            if (e == 0) continue;
            long[] a = byName.computeIfAbsent(p.name(), k -> new long[4]);
            a[0] += e;
            a[1] += delta(now.completed(), before.completed(), id);
            a[2] += delta(now.nanos(), before.nanos(), id);
            a[3] += delta(now.depths(), before.depths(), id);
        }
        List<ProbeLoad> out = new ArrayList<>(byName.size());
        for (Map.Entry<String, long[]> e : byName.entrySet()) {
            long[] a = e.getValue();
            out.add(new ProbeLoad(e.getKey(), a[0], a[1] == 0 ? -1 : a[2] / (double) a[1], a[3] / (double) a[0],
                    a[0] * nanosPerExecution));
        }
        return out;
    }

    private static long delta(long[] now, long[] before, int id) {
        return now[id] - (id < before.length ? before[id] : 0);
    }

    /** Why the budget switched {@code s} off, with its figures (the event's reason, and the probe listing's detail). */
    private String reason(Switch s) {
        return String.format(Locale.ROOT, "over budget: monitoring cost %.1f %% of the application's CPU time,"
                + " budget %s %%; this probe: %d executions in %d ms, %.1f %% of the cost, mean %s, depth %.1f", s.overhead(),
                trim(settings.percent()), s.executions(), intervalMillis, s.share(),
                s.meanNanos() < 0 ? "not completed" : Math.round(s.meanNanos()) + " ns", s.depth());
    }

    /** The switch as an event in the log (this thread's own ring). */
    private void record(Switch s, String reason) {
        events.events().begin(eventType, TYPES, eventBytes, System.nanoTime())
                .putString(pipeline.registry().string(s.probe()))
                .putString(pipeline.registry().string(reason))
                .putLong(s.executions())
                .putDouble(s.share())
                .putLong(Math.round(s.meanNanos()))
                .putDouble(s.depth())
                .putDouble(s.overhead())
                .end();
    }

    /**
     * Applies {@code budget.state}: the probes an earlier run's budget switched off are switched
     * off and left out of the code before any class is woven, each recorded (at the budget
     * thread's start) as a switch with the earlier reason. Used when it was learned with this
     * budget or a stricter one (a looser budget now would keep probes on that it switched off);
     * probes pinned now stay on. A file that cannot be read is named with the problem on stderr
     * and left as it is: the budget learns afresh and does not overwrite it.
     */
    private void restore() {
        Path file = settings.state();
        if (file == null) return;
        BudgetState.Learned learned;
        try {
            learned = BudgetState.read(file);
        } catch (BudgetState.Unreadable e) {
            stateWritable = false;
            stateStatus = file + " (not used, not written: " + e.getMessage() + ")";
            AgentLog.info("budget.state not used and left as it is: " + e.getMessage());
            return;
        }
        if (learned == null) {
            stateStatus = file + " (none yet: this start learns it)";
            return;
        }
        if (learned.percent() < settings.percent()) {
            stateStatus = file + " (not used: learned with the stricter budget=" + trim(learned.percent()) + " %; this start learns it anew)";
            AgentLog.info("budget.state " + file + " not used: it was learned with budget=" + trim(learned.percent())
                    + ", stricter than this start's budget=" + trim(settings.percent()) + "; the budget learns anew and replaces it");
            return;
        }
        String earlier = "as it was in an earlier run (budget.state " + file + ", written " + learned.written() + "); then: ";
        Map<String, String> rules = new LinkedHashMap<>();
        List<BudgetState.Entry> events = new ArrayList<>();
        for (BudgetState.Entry e : learned.entries()) {
            String name = e.figures().probe();
            if (settings.pinned(name) || rules.containsKey(name)) continue;
            rules.put(name, "switched off by the overhead budget at start and left out of the code, " + earlier + e.reason());
            switched.add(e);
            events.add(new BudgetState.Entry(e.figures(), "switched off by the overhead budget at start, " + earlier + e.reason()));
        }
        catalog.switchOff(rules, ProbeCatalog.Origin.BUDGET);
        catalog.leaveOutOfCode(rules.keySet());
        restored = events;
        restoredCost = learned.measured();
        stateStatus = String.format(Locale.ROOT, "%s (%d probe(s) left out of the code from the start, learned with budget=%s %%, written %s%s)",
                file, rules.size(), trim(learned.percent()), learned.written(), learned.measured() == null ? ""
                        : String.format(Locale.ROOT, "; one execution measured at %.2f times the calibrated pair", learned.measured().pairs()));
        AgentLog.info("budget: " + rules.size() + " probe(s) left out of the code from the start, as the budget switched them off"
                + " in an earlier run (budget.state " + file + ", written " + learned.written() + ")");
    }

    /**
     * Writes {@code budget.state}: every probe the budget switched off that is still off (an
     * operator may have switched some on again), with its figures and reason. A failure is said
     * once on stderr; the budget goes on.
     */
    private void saveState() {
        Path file = settings.state();
        if (file == null || !stateWritable) return;
        List<BudgetState.Entry> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (BudgetState.Entry e : switched) {
            if (seen.add(e.figures().probe()) && offNow(e.figures().probe())) out.add(e);
        }
        Instant now = Instant.now();
        try {
            BudgetState.write(file, settings.percent(), now, cost == null ? restoredCost : cost.measured(), out);
            stateSaved = String.format(Locale.ROOT, "%d probe(s) kept for the next start, at %s", out.size(), now);
        } catch (IOException | RuntimeException e) {
            if (!stateWriteFailed) AgentLog.info("budget.state " + file + " could not be written: " + e);
            stateWriteFailed = true;
            stateSaved = "could not be written: " + e;
        }
    }

    /** True when the last switch rule for this exact name switched it off (probes left out of the code are not registered). */
    private boolean offNow(String name) {
        ProbeCatalog.SwitchRule r = catalog.lastSwitch(name);
        return r != null && !r.enabled();
    }

    /**
     * Lines for the agent's counters ({@code sonde probes status}): the budget, the calibrated pair
     * cost, the last interval's overhead, and every probe switched off with its figures.
     */
    public String[] counters() {
        List<String> out = new ArrayList<>();
        out.add("budget.percent=" + trim(settings.percent()) + " (" + state + ")");
        out.add(String.format(Locale.ROOT, "budget.pair.ns=%.1f", pairNanos));
        out.add(String.format(Locale.ROOT, "budget.kept.in.code=%d (at most %.3f %% of the application's CPU time)", keptInCode,
                100 * keptShare));
        ExecutionCost c = cost;
        out.add("budget.execution.ns=" + (c == null ? "-" : c.toString()));
        out.add(String.format(Locale.ROOT, "budget.writer.ns=%.1f", writerNanos));
        out.add(String.format(Locale.ROOT, "budget.overhead.percent=%.2f", overheadPercent));
        out.add("budget.switched.off=" + switched.size());
        out.add("budget.rewoven.classes=" + classesRewoven + " (" + rewovenMillis + " ms)");
        out.add("budget.cpu.ms=" + TimeUnit.NANOSECONDS.toMillis(ownCpu));
        out.add(settings.trivial() ? "budget.trivial.left.out=" + trivial.count() + " (methods of at most " + TrivialMethods.MAX_BYTES
                + " bytes of bytecode, left out of the code when first woven)" : "budget.trivial.left.out=off (budget.trivial=off)");
        if (stateStatus != null) out.add("budget.state=" + stateStatus);
        if (stateSaved != null) out.add("budget.state.saved=" + stateSaved);
        synchronized (history) {
            out.addAll(history);
        }
        for (BudgetState.Entry e : switched) {
            Switch s = e.figures();
            out.add(String.format(Locale.ROOT, "budget.off %s executions=%d share=%.1f%% mean.ns=%s depth=%.1f", s.probe(),
                    s.executions(), s.share(), s.meanNanos() < 0 ? "-" : String.valueOf(Math.round(s.meanNanos())), s.depth()));
        }
        return out.toArray(new String[0]);
    }

    static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
