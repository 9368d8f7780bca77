package io.sonde.sim.scenario;

import io.sonde.sim.blocks.Mutex;
import io.sonde.sim.blocks.NetworkLink;
import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.RequestQueue;
import io.sonde.sim.blocks.RequestSink;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.cpu.SchedulerFactory;
import io.sonde.sim.cpu.SchedulerSpec;
import io.sonde.sim.engine.Experiment;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.model.Durations;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.stats.Estimate;
import io.sonde.sim.stats.ExperimentResult;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.ReplicationResult;
import io.sonde.sim.stats.Tally;
import io.sonde.sim.workload.OpenArrivals;
import io.sonde.sim.workload.ResponseRecorder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds and runs a general model described by a scenario file (the format is documented in
 * docs/simulator.md, "Scenario files"): machines with CPUs and a scheduler, FIFO queues, mutexes,
 * network links, programs of steps, threads running them, open arrivals, and named measures.
 * The whole file is checked before anything runs; every error names the file, line and column.
 */
public final class ScenarioRunner {

    /**
     * Command-line settings.
     *
     * @param variant the variant to apply (the file's {@code variants:} key), or null
     * @param arrivalRate overrides the parameter {@code arrival_rate} (per second), or null
     * @param seed the experiment seed
     * @param replications replications
     * @param cpus overrides every machine's CPU count, or null
     * @param scheduler overrides every machine's scheduler, or null
     * @param requests overrides the arrivals' request count, or null
     */
    public record Options(String variant, Double arrivalRate, long seed, int replications, Integer cpus,
            String scheduler, Integer requests) {}

    private static final Pattern PARAM = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

    private final ScenarioFile file;
    private final Options options;
    private final Map<String, String> params = new LinkedHashMap<>();
    private final Map<String, Node> machineDefs = new LinkedHashMap<>();
    private final List<String> queueNames = new ArrayList<>();
    private final List<String> mutexNames = new ArrayList<>();
    private final Map<String, Node> linkDefs = new LinkedHashMap<>();
    private final Map<String, Node> programDefs = new LinkedHashMap<>();
    private final List<Node> threadDefs = new ArrayList<>();
    private final List<Node> arrivalDefs = new ArrayList<>();
    private final List<String> measureOrder = new ArrayList<>();
    private final Map<String, Integer> slots = new LinkedHashMap<>();
    private final Map<String, Integer> types = new LinkedHashMap<>();
    private double warmupFraction = 0.1;

    private ScenarioRunner(ScenarioFile file, Options options) {
        this.file = file;
        this.options = options;
    }

    /** Checks the file, runs the replications and returns the measures. */
    public static SimulationResult run(ScenarioFile file, Options options) {
        ScenarioRunner r = new ScenarioRunner(file, options);
        r.check();
        return r.execute();
    }

    /** Checks the file without running it (used by tests and for early errors). */
    public static void check(ScenarioFile file, Options options) {
        new ScenarioRunner(file, options).check();
    }

    // ------------------------------------------------------------------ checking

    private void check() {
        Node root = file.root();
        root.allowOnly("the scenario", "name", "description", "parameters", "variants", "machines", "queues",
                "mutexes", "links", "programs", "threads", "arrivals", "measures", "warmup_fraction");
        Node ps = root.get("parameters");
        if (ps != null) {
            for (Map.Entry<String, Node> e : ps.asMap("parameters").entrySet()) {
                params.put(e.getKey(), e.getValue().asText("parameter " + e.getKey()));
            }
        }
        Node vs = root.get("variants");
        if (options.variant() != null) {
            if (vs == null) {
                throw new ScenarioException(file.name() + ": --scenario " + options.variant()
                        + " given, but the file defines no variants");
            }
            Node v = vs.asMap("variants").get(options.variant());
            if (v == null) {
                throw vs.error("no variant '" + options.variant() + "' (defined: "
                        + String.join(", ", vs.asMap("variants").keySet()) + ")");
            }
            for (Map.Entry<String, Node> e : v.asMap("variant " + options.variant()).entrySet()) {
                if (!params.containsKey(e.getKey())) {
                    throw v.keyNode(e.getKey()).error("variant sets '" + e.getKey() + "', which is not a parameter");
                }
                params.put(e.getKey(), e.getValue().asText("parameter " + e.getKey()));
            }
        } else if (vs != null && !vs.asMap("variants").isEmpty()) {
            throw new ScenarioException(file.name() + ": choose a variant with --scenario ("
                    + String.join(", ", vs.asMap("variants").keySet()) + ")");
        }
        if (options.arrivalRate() != null) {
            if (!(options.arrivalRate() > 0) || options.arrivalRate().isInfinite()) {
                throw new ScenarioException("--arrival-rate must be > 0, got " + options.arrivalRate());
            }
            if (!params.containsKey("arrival_rate")) {
                throw new ScenarioException(file.name() + ": --arrival-rate given, but the file has no parameter 'arrival_rate'");
            }
            params.put("arrival_rate", Double.toString(options.arrivalRate()));
        }
        if (root.get("warmup_fraction") != null) {
            warmupFraction = number(root.get("warmup_fraction"), "warmup_fraction", 0, 0.9);
        }
        for (Node m : root.require("machines", "the scenario").asList("machines")) {
            m.allowOnly("a machine", "name", "cpus", "scheduler", "speed");
            String name = name(m, "machine");
            if (machineDefs.put(name, m) != null) {
                throw m.error("machine '" + name + "' is defined twice");
            }
            integer(m.require("cpus", "machine " + name), "cpus", 1, 4096);
            scheduler(m);
            if (m.get("speed") != null) {
                number(m.get("speed"), "speed", 1e-9, 1e9);
            }
        }
        Node qs = root.get("queues");
        if (qs != null) {
            for (Node q : qs.asList("queues")) {
                String n = subst(q, q.asText("a queue name"));
                checkNewName(q, n);
                queueNames.add(n);
            }
        }
        Node ms = root.get("mutexes");
        if (ms != null) {
            for (Node q : ms.asList("mutexes")) {
                String n = subst(q, q.asText("a mutex name"));
                checkNewName(q, n);
                mutexNames.add(n);
            }
        }
        Node ls = root.get("links");
        if (ls != null) {
            for (Node l : ls.asList("links")) {
                l.allowOnly("a link", "name", "latency", "to");
                String n = name(l, "link");
                checkNewName(l, n);
                distribution(l.require("latency", "link " + n));
                linkDefs.put(n, l);
            }
            for (Node l : linkDefs.values()) {
                sink(l.require("to", "link"));
            }
        }
        Node prs = root.require("programs", "the scenario");
        for (Map.Entry<String, Node> e : prs.asMap("programs").entrySet()) {
            programDefs.put(e.getKey(), e.getValue());
        }
        for (Map.Entry<String, Node> e : programDefs.entrySet()) {
            checkSteps(e.getValue(), "program " + e.getKey(), 0);
        }
        for (Node t : root.require("threads", "the scenario").asList("threads")) {
            t.allowOnly("a thread", "name", "machine", "program", "count");
            name(t, "thread");
            machine(t.require("machine", "thread"));
            program(t.require("program", "thread"));
            if (t.get("count") != null) {
                integer(t.get("count"), "count", 1, 100_000);
            }
            threadDefs.add(t);
        }
        for (Node a : root.require("arrivals", "the scenario").asList("arrivals")) {
            a.allowOnly("an arrival process", "process", "rate", "to", "requests", "type", "response");
            String proc = subst(a, a.require("process", "arrival process").asText("process")).toLowerCase(Locale.ROOT);
            if (!proc.equals("poisson") && !proc.equals("deterministic")) {
                throw a.get("process").error("process must be poisson or deterministic, got '" + proc + "'");
            }
            number(a.require("rate", "arrival process"), "rate (per second)", 1e-12, 1e12);
            sink(a.require("to", "arrival process"));
            integer(a.require("requests", "arrival process"), "requests", 1, 100_000_000);
            if (a.get("type") != null) {
                type(a.get("type"));
            }
            if (a.get("response") != null) {
                measure(a.get("response"));
            }
            arrivalDefs.add(a);
        }
        Node mo = root.get("measures");
        if (mo != null) {
            List<String> ordered = new ArrayList<>();
            for (Node m : mo.asList("measures")) {
                String n = m.asText("a measure name");
                if (!measureOrder.contains(n)) {
                    throw m.error("measure '" + n + "' is listed but never recorded by a program or an arrival process");
                }
                ordered.add(n);
            }
            for (String n : measureOrder) {
                if (!ordered.contains(n)) {
                    ordered.add(n);
                }
            }
            measureOrder.clear();
            measureOrder.addAll(ordered);
        }
    }

    private void checkSteps(Node steps, String where, int depth) {
        if (depth > 16) {
            throw steps.error("steps nested too deeply in " + where);
        }
        List<Node> list = steps.asList(where + " (a list of steps)");
        if (list.isEmpty()) {
            throw steps.error(where + " has no steps");
        }
        for (Node s : list) {
            Map<String, Node> m = s.asMap("a step");
            if (m.size() != 1) {
                throw s.error("a step has exactly one key (cpu, delay, lock, unlock, get, forward, call, reply, mark,"
                        + " record, type, by_type, run, exit), found " + m.size());
            }
            String kind = m.keySet().iterator().next();
            Node v = m.get(kind);
            switch (kind) {
                case "cpu", "delay" -> distribution(v);
                case "lock", "unlock" -> mutex(v);
                case "get" -> queue(v);
                case "forward", "call" -> sink(v);
                case "reply", "exit" -> { }
                case "mark" -> slot(v);
                case "record" -> {
                    v.allowOnly("record", "measure", "since");
                    measure(v.require("measure", "record"));
                    slot(v.require("since", "record"));
                }
                case "type" -> type(v);
                case "by_type" -> {
                    for (Map.Entry<String, Node> e : v.asMap("by_type").entrySet()) {
                        typeName(v.keyNode(e.getKey()), e.getKey());
                        checkSteps(e.getValue(), where + " / by_type " + e.getKey(), depth + 1);
                    }
                }
                case "run" -> program(v);
                default -> throw s.keyNode(kind).error("unknown step '" + kind + "' (known: cpu, delay, lock, unlock, get,"
                        + " forward, call, reply, mark, record, type, by_type, run, exit)");
            }
        }
    }

    private void checkNewName(Node at, String n) {
        if (queueNames.contains(n) || mutexNames.contains(n) || linkDefs.containsKey(n)) {
            throw at.error("the name '" + n + "' is used twice (queues, mutexes and links share one name space)");
        }
    }

    private String name(Node m, String what) {
        String n = subst(m, m.require("name", "a " + what).asText(what + " name"));
        if (n.isBlank()) {
            throw m.get("name").error(what + " name must not be empty");
        }
        return n;
    }

    private String subst(Node at, String text) {
        Matcher mt = PARAM.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (mt.find()) {
            String v = params.get(mt.group(1));
            if (v == null) {
                throw at.error("unknown parameter $" + mt.group(1) + (params.isEmpty() ? "" : " (defined: " + String.join(", ", params.keySet()) + ")"));
            }
            mt.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        mt.appendTail(sb);
        return sb.toString();
    }

    private double number(Node n, String what, double min, double max) {
        String t = subst(n, n.asText(what));
        double v;
        try {
            v = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw n.error(what + " must be a number, got '" + t + "'");
        }
        if (!(v >= min && v <= max)) {
            throw n.error(what + " must be between " + fmt(min) + " and " + fmt(max) + ", got " + t);
        }
        return v;
    }

    private int integer(Node n, String what, int min, int max) {
        double v = number(n, what, min, max);
        if (v != Math.rint(v)) {
            throw n.error(what + " must be a whole number, got " + fmt(v));
        }
        return (int) v;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private Distribution distribution(Node n) {
        String t = subst(n, n.asText("a distribution"));
        try {
            return Distribution.parse(t);
        } catch (IllegalArgumentException e) {
            // A bare duration such as "30ms" or "0" is a constant.
            try {
                return Distribution.deterministic(t.strip().equals("0") ? 0 : Durations.parseMillis(t));
            } catch (IllegalArgumentException e2) {
                throw n.error(e.getMessage());
            }
        }
    }

    private SchedulerFactory scheduler(Node m) {
        String s = options.scheduler() != null ? options.scheduler()
                : m.get("scheduler") == null ? "linux24" : subst(m.get("scheduler"), m.get("scheduler").asText("scheduler"));
        try {
            return SchedulerSpec.parse(s).factory();
        } catch (IllegalArgumentException e) {
            throw (m.get("scheduler") != null ? m.get("scheduler") : m).error(e.getMessage());
        }
    }

    private String ref(Node n, String what, List<String> known) {
        String t = subst(n, n.asText(what));
        if (!known.contains(t)) {
            throw n.error("unknown " + what + " '" + t + "'" + (known.isEmpty() ? "" : " (defined: " + String.join(", ", known) + ")"));
        }
        return t;
    }

    private String machine(Node n) {
        return ref(n, "machine", new ArrayList<>(machineDefs.keySet()));
    }

    private String queue(Node n) {
        return ref(n, "queue", queueNames);
    }

    private String mutex(Node n) {
        return ref(n, "mutex", mutexNames);
    }

    private String program(Node n) {
        return ref(n, "program", new ArrayList<>(programDefs.keySet()));
    }

    private String sink(Node n) {
        List<String> sinks = new ArrayList<>(queueNames);
        sinks.addAll(linkDefs.keySet());
        return ref(n, "queue or link", sinks);
    }

    private int slot(Node n) {
        String s = subst(n, n.asText("a stamp name"));
        return slots.computeIfAbsent(s, k -> slots.size());
    }

    private String measure(Node n) {
        String s = subst(n, n.asText("a measure name"));
        if (!s.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw n.error("measure name '" + s + "' must be letters, digits and _");
        }
        if (!measureOrder.contains(s)) {
            measureOrder.add(s);
        }
        return s;
    }

    private int type(Node n) {
        return typeName(n, subst(n, n.asText("a request type")));
    }

    private int typeName(Node at, String t) {
        if (t.isBlank()) {
            throw at.error("request type must not be empty");
        }
        return types.computeIfAbsent(t, k -> types.size());
    }

    // ------------------------------------------------------------------ running

    private SimulationResult execute() {
        ExperimentResult r = new Experiment(options.seed(), options.replications()).run(this::replicate);
        SimulationResult out = new SimulationResult();
        Node nm = file.root().get("name");
        out.info("model", nm == null ? file.name() : nm.asText("name"));
        if (options.variant() != null) {
            out.info("scenario", options.variant());
        }
        if (params.containsKey("arrival_rate")) {
            out.info("arrival_rate_per_s", params.get("arrival_rate"));
        }
        out.info("seed", Long.toString(options.seed())).info("replications", Integer.toString(options.replications()));
        for (Estimate e : r.estimates().values()) {
            out.put(e.name(), Double.isNaN(e.mean()) ? null : new SimulationResult.Estimate(e.mean(), e.ci95()));
        }
        out.put("events_per_s", new SimulationResult.Estimate(r.eventsPerSecond(), Double.NaN));
        return out;
    }

    /** One replication: everything is built afresh on {@code sim}. */
    private ReplicationResult replicate(Simulation sim) {
        Measures measures = new Measures(sim);
        Map<String, Tally> tallies = new LinkedHashMap<>();
        for (String m : measureOrder) {
            tallies.put(m, measures.tally(m));
        }
        Map<String, Machine> machines = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : machineDefs.entrySet()) {
            Node m = e.getValue();
            int cpus = options.cpus() != null ? options.cpus() : integer(m.get("cpus"), "cpus", 1, 4096);
            double speed = m.get("speed") == null ? 1.0 : number(m.get("speed"), "speed", 1e-9, 1e9);
            Machine mc = new Machine(sim, e.getKey(), cpus, speed, scheduler(m));
            machines.put(e.getKey(), mc);
            measures.add(mc.utilizationAs(e.getKey() + "_cpu_utilization"));
        }
        Map<String, RequestSink> sinks = new LinkedHashMap<>();
        Map<String, RequestQueue> queues = new LinkedHashMap<>();
        for (String q : queueNames) {
            RequestQueue rq = new RequestQueue(sim, q);
            queues.put(q, rq);
            sinks.put(q, rq);
        }
        Map<String, Mutex> mutexes = new LinkedHashMap<>();
        for (String m : mutexNames) {
            mutexes.put(m, new Mutex(sim, m));
        }
        // Links may point at other links: create them in an order that resolves targets first.
        List<String> pending = new ArrayList<>(linkDefs.keySet());
        while (!pending.isEmpty()) {
            boolean progress = false;
            for (String l : new ArrayList<>(pending)) {
                Node def = linkDefs.get(l);
                String to = subst(def.get("to"), def.get("to").asText("to"));
                if (sinks.containsKey(to)) {
                    SampleSource lat = sim.sampler("link:" + l, distribution(def.get("latency")));
                    sinks.put(l, new NetworkLink(sim, l, lat, sinks.get(to)));
                    pending.remove(l);
                    progress = true;
                }
            }
            if (!progress) {
                throw linkDefs.get(pending.get(0)).error("links form a cycle: " + String.join(" -> ", pending));
            }
        }
        Map<String, Program> programs = new LinkedHashMap<>();
        for (String name : programDefs.keySet()) {
            buildProgram(name, sim, programs, sinks, queues, mutexes, tallies, new ArrayList<>());
        }
        for (Node t : threadDefs) {
            String base = subst(t.get("name"), t.get("name").asText("name"));
            int count = t.get("count") == null ? 1 : integer(t.get("count"), "count", 1, 100_000);
            Machine mc = machines.get(machine(t.get("machine")));
            Program p = programs.get(program(t.get("program")));
            for (int i = 0; i < count; i++) {
                new SimThread(mc, count == 1 ? base : base + "-" + i, p).start();
            }
        }
        long total = 0;
        int ai = 0;
        for (Node a : arrivalDefs) {
            String proc = subst(a.get("process"), a.get("process").asText("process")).toLowerCase(Locale.ROOT);
            double rate = number(a.get("rate"), "rate", 1e-12, 1e12);
            RequestSink to = sinks.get(sink(a.get("to")));
            long n = options.requests() != null ? options.requests() : integer(a.get("requests"), "requests", 1, 100_000_000);
            total += n;
            Tally resp = a.get("response") == null ? null : tallies.get(measure(a.get("response")));
            ResponseRecorder rec = new ResponseRecorder(measures, resp, ai == 0 ? measures.rate("throughput_per_s") : null);
            OpenArrivals arr = proc.equals("poisson")
                    ? OpenArrivals.poisson(sim, "arrivals-" + ai, rate, to, rec, n)
                    : OpenArrivals.deterministic(sim, rate, to, rec, n);
            if (a.get("type") != null) {
                int type = type(a.get("type"));
                arr.initializer(req -> req.setType(type));
            }
            arr.start();
            ai++;
        }
        long warm = (long) Math.floor(total * warmupFraction);
        if (warm > 0) {
            measures.warmUpCompletions(warm);
        }
        sim.run(Double.POSITIVE_INFINITY);
        return measures.snapshot();
    }

    private Program buildProgram(String name, Simulation sim, Map<String, Program> built, Map<String, RequestSink> sinks,
            Map<String, RequestQueue> queues, Map<String, Mutex> mutexes, Map<String, Tally> tallies, List<String> stack) {
        Program p = built.get(name);
        if (p != null) {
            return p;
        }
        if (stack.contains(name)) {
            throw programDefs.get(name).error("program '" + name + "' runs itself (cycle: " + String.join(" -> ", stack) + " -> " + name + ")");
        }
        stack.add(name);
        Node def = programDefs.get(name);
        // A program that starts by taking requests from a queue is a server loop; others run once.
        boolean loop = firstStepIsGet(def);
        Program.Builder b = loop ? Program.loop(name) : Program.once(name);
        steps(b, def, name, sim, built, sinks, queues, mutexes, tallies, stack);
        p = b.build();
        built.put(name, p);
        stack.remove(name);
        return p;
    }

    private static boolean firstStepIsGet(Node def) {
        List<Node> l = def.asList("steps");
        return !l.isEmpty() && l.get(0).get("get") != null;
    }

    private void steps(Program.Builder b, Node def, String name, Simulation sim, Map<String, Program> built,
            Map<String, RequestSink> sinks, Map<String, RequestQueue> queues, Map<String, Mutex> mutexes,
            Map<String, Tally> tallies, List<String> stack) {
        int i = 0;
        for (Node s : def.asList("steps")) {
            String kind = s.asMap("step").keySet().iterator().next();
            Node v = s.get(kind);
            String stream = name + "#" + (i++);
            switch (kind) {
                case "cpu" -> b.cpu(sampler(sim, stream, distribution(v)));
                case "delay" -> b.delay(sampler(sim, stream, distribution(v)));
                case "lock" -> b.lock(mutexes.get(mutex(v)));
                case "unlock" -> b.unlock(mutexes.get(mutex(v)));
                case "get" -> b.get(queues.get(queue(v)));
                case "forward" -> b.forward(sinks.get(sink(v)));
                case "call" -> b.call(sinks.get(sink(v)));
                case "reply" -> b.reply();
                case "exit" -> b.exit();
                case "mark" -> b.mark(slot(v));
                case "record" -> b.record(tallies.get(measure(v.get("measure"))), slot(v.get("since")));
                case "type" -> {
                    int t = type(v);
                    b.action("type " + t, (thread, req) -> {
                        if (req != null) {
                            req.setType(t);
                        }
                    });
                }
                case "by_type" -> {
                    Program[] byType = new Program[types.size()];
                    for (Map.Entry<String, Node> e : v.asMap("by_type").entrySet()) {
                        Program.Builder sub = Program.once(name + "/" + e.getKey());
                        steps(sub, e.getValue(), name + "/" + e.getKey(), sim, built, sinks, queues, mutexes, tallies, stack);
                        byType[types.get(e.getKey())] = sub.build();
                    }
                    for (int t = 0; t < byType.length; t++) {
                        if (byType[t] == null) {
                            // A type without a branch does nothing here.
                            byType[t] = Program.once(name + "/other").action("none", (thread, req) -> { }).build();
                        }
                    }
                    b.byType(byType);
                }
                case "run" -> b.run(buildProgram(program(v), sim, built, sinks, queues, mutexes, tallies, stack));
                default -> throw s.error("unknown step '" + kind + "'");
            }
        }
    }

    private static SampleSource sampler(Simulation sim, String stream, Distribution d) {
        if (d.variance() == 0) {
            return SampleSource.constant(d.mean());
        }
        return sim.sampler(stream, d);
    }
}
