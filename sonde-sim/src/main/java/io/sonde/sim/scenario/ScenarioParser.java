package io.sonde.sim.scenario;

import io.sonde.sim.cpu.SchedulerSpec;
import io.sonde.sim.model.Durations;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.scenario.ScenarioSpec.ArrivalSpec;
import io.sonde.sim.scenario.ScenarioSpec.LinkSpec;
import io.sonde.sim.scenario.ScenarioSpec.MachineSpec;
import io.sonde.sim.scenario.ScenarioSpec.ProgramSpec;
import io.sonde.sim.scenario.ScenarioSpec.ThreadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a {@link ScenarioFile} into a {@link ScenarioSpec}: applies the variant, the parameters
 * and the command-line overrides, and checks everything — keys, numbers, distributions, names and
 * references, cycles of links and of programs running each other — before anything runs. Every
 * error names the file, line and column and the problem.
 */
public final class ScenarioParser {
    private static final Pattern PARAM = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");
    /** The step kinds, in the order error messages list them. */
    private static final String STEP_KINDS = "cpu, delay, lock, unlock, get, forward, call, reply, mark, record, type,"
            + " by_type, run, exit";

    private final ScenarioFile file;
    private final ScenarioRunner.Options options;
    private final Map<String, String> params = new LinkedHashMap<>();
    private final List<String> machineNames = new ArrayList<>();
    private final List<String> queueNames = new ArrayList<>();
    private final List<String> mutexNames = new ArrayList<>();
    private final Map<String, Node> linkDefs = new LinkedHashMap<>();
    private final Map<String, Node> programDefs = new LinkedHashMap<>();
    private final List<String> measureOrder = new ArrayList<>();
    private final Map<String, Integer> slots = new LinkedHashMap<>();
    private final Map<String, Integer> types = new LinkedHashMap<>();

    private ScenarioParser(ScenarioFile file, ScenarioRunner.Options options) {
        this.file = file;
        this.options = options;
    }

    /**
     * Parses and checks {@code file} with the command-line {@code options} (variant, arrival rate,
     * CPU, scheduler and request overrides; seed and replications are not used here).
     *
     * @throws ScenarioException naming the place and the problem
     */
    public static ScenarioSpec parse(ScenarioFile file, ScenarioRunner.Options options) {
        return new ScenarioParser(file, options).parse();
    }

    private ScenarioSpec parse() {
        Node root = file.root();
        root.allowOnly("the scenario", "name", "description", "parameters", "variants", "machines", "queues",
                "mutexes", "links", "programs", "threads", "arrivals", "measures", "warmup_fraction");
        parameters(root);
        double warmupFraction = root.get("warmup_fraction") == null ? 0.1
                : number(root.get("warmup_fraction"), "warmup_fraction", 0, 0.9);
        List<MachineSpec> machines = new ArrayList<>();
        for (Node m : root.require("machines", "the scenario").asList("machines")) {
            machines.add(machine(m));
        }
        names(root.get("queues"), "queues", "a queue name", queueNames);
        names(root.get("mutexes"), "mutexes", "a mutex name", mutexNames);
        List<LinkSpec> links = links(root.get("links"));
        Node prs = root.require("programs", "the scenario");
        programDefs.putAll(prs.asMap("programs"));
        List<ProgramSpec> programs = new ArrayList<>();
        for (Map.Entry<String, Node> e : programDefs.entrySet()) {
            Node def = e.getValue();
            List<StepSpec> steps = steps(def, "program " + e.getKey(), 0);
            // A program that starts by taking requests from a queue is a server loop; others run once.
            programs.add(new ProgramSpec(e.getKey(), steps.get(0) instanceof StepSpec.Get, steps));
        }
        List<ThreadSpec> threads = new ArrayList<>();
        for (Node t : root.require("threads", "the scenario").asList("threads")) {
            t.allowOnly("a thread", "name", "machine", "program", "count");
            String name = name(t, "thread");
            String machine = ref(t.require("machine", "thread"), "machine", machineNames);
            String program = program(t.require("program", "thread"));
            int count = t.get("count") == null ? 1 : integer(t.get("count"), "count", 1, 100_000);
            threads.add(new ThreadSpec(name, machine, program, count));
        }
        List<ArrivalSpec> arrivals = new ArrayList<>();
        for (Node a : root.require("arrivals", "the scenario").asList("arrivals")) {
            arrivals.add(arrival(a));
        }
        measureListing(root.get("measures"));
        checkProgramCycles();
        Node nm = root.get("name");
        return new ScenarioSpec(nm == null ? file.name() : nm.asText("name"), options.variant(),
                params.get("arrival_rate"), warmupFraction, machines, queueNames, mutexNames, links, programs,
                threads, arrivals, measureOrder, new ArrayList<>(types.keySet()));
    }

    private void parameters(Node root) {
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
    }

    private MachineSpec machine(Node m) {
        m.allowOnly("a machine", "name", "cpus", "scheduler", "speed");
        String name = name(m, "machine");
        if (machineNames.contains(name)) {
            throw m.error("machine '" + name + "' is defined twice");
        }
        machineNames.add(name);
        int cpus = integer(m.require("cpus", "machine " + name), "cpus", 1, 4096);
        SchedulerSpec scheduler = scheduler(m);
        double speed = m.get("speed") == null ? 1.0 : number(m.get("speed"), "speed", 1e-9, 1e9);
        return new MachineSpec(name, options.cpus() != null ? options.cpus() : cpus, speed, scheduler);
    }

    private SchedulerSpec scheduler(Node m) {
        Node at = m.get("scheduler");
        String s = options.scheduler() != null ? options.scheduler()
                : at == null ? "linux24" : subst(at, at.asText("scheduler"));
        try {
            return SchedulerSpec.parse(s);
        } catch (IllegalArgumentException e) {
            throw (at != null ? at : m).error(e.getMessage());
        }
    }

    /** The links, ordered so that every link comes after the link it delivers to. */
    private List<LinkSpec> links(Node ls) {
        if (ls == null) {
            return List.of();
        }
        Map<String, Distribution> latencies = new LinkedHashMap<>();
        for (Node l : ls.asList("links")) {
            l.allowOnly("a link", "name", "latency", "to");
            String n = name(l, "link");
            checkNewName(l, n);
            linkDefs.put(n, l);
            latencies.put(n, distribution(l.require("latency", "link " + n)));
        }
        Map<String, LinkSpec> defined = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : linkDefs.entrySet()) {
            String to = sink(e.getValue().require("to", "link"));
            defined.put(e.getKey(), new LinkSpec(e.getKey(), latencies.get(e.getKey()), to));
        }
        // Repeated passes in file order, as links are created in this order.
        List<LinkSpec> ordered = new ArrayList<>();
        List<String> resolved = new ArrayList<>(queueNames);
        List<String> pending = new ArrayList<>(defined.keySet());
        while (!pending.isEmpty()) {
            boolean progress = false;
            for (String l : new ArrayList<>(pending)) {
                LinkSpec spec = defined.get(l);
                if (resolved.contains(spec.to())) {
                    ordered.add(spec);
                    resolved.add(l);
                    pending.remove(l);
                    progress = true;
                }
            }
            if (!progress) {
                throw linkDefs.get(pending.get(0)).error("links form a cycle: " + String.join(" -> ", pending));
            }
        }
        return ordered;
    }

    private List<StepSpec> steps(Node steps, String where, int depth) {
        if (depth > 16) {
            throw steps.error("steps nested too deeply in " + where);
        }
        List<Node> list = steps.asList(where + " (a list of steps)");
        if (list.isEmpty()) {
            throw steps.error(where + " has no steps");
        }
        List<StepSpec> out = new ArrayList<>(list.size());
        for (Node s : list) {
            Map<String, Node> m = s.asMap("a step");
            if (m.size() != 1) {
                throw s.error("a step has exactly one key (" + STEP_KINDS + "), found " + m.size());
            }
            String kind = m.keySet().iterator().next();
            out.add(step(s, kind, m.get(kind), where, depth));
        }
        return out;
    }

    private StepSpec step(Node s, String kind, Node v, String where, int depth) {
        return switch (kind) {
            case "cpu" -> new StepSpec.Cpu(distribution(v));
            case "delay" -> new StepSpec.Delay(distribution(v));
            case "lock" -> new StepSpec.Lock(ref(v, "mutex", mutexNames));
            case "unlock" -> new StepSpec.Unlock(ref(v, "mutex", mutexNames));
            case "get" -> new StepSpec.Get(ref(v, "queue", queueNames));
            case "forward" -> new StepSpec.Forward(sink(v));
            case "call" -> new StepSpec.Call(sink(v));
            case "reply" -> new StepSpec.Reply();
            case "exit" -> new StepSpec.Exit();
            case "mark" -> {
                String stamp = stamp(v);
                yield new StepSpec.Mark(stamp, slots.get(stamp));
            }
            case "record" -> {
                v.allowOnly("record", "measure", "since");
                String measure = measure(v.require("measure", "record"));
                String since = stamp(v.require("since", "record"));
                yield new StepSpec.Record(measure, since, slots.get(since));
            }
            case "type" -> {
                String t = subst(v, v.asText("a request type"));
                yield new StepSpec.SetType(t, typeId(v, t));
            }
            case "by_type" -> {
                List<StepSpec.ByType.Case> cases = new ArrayList<>();
                for (Map.Entry<String, Node> e : v.asMap("by_type").entrySet()) {
                    int id = typeId(v.keyNode(e.getKey()), e.getKey());
                    cases.add(new StepSpec.ByType.Case(e.getKey(), id,
                            steps(e.getValue(), where + " / by_type " + e.getKey(), depth + 1)));
                }
                yield new StepSpec.ByType(cases);
            }
            case "run" -> new StepSpec.Run(program(v));
            default -> throw s.keyNode(kind).error("unknown step '" + kind + "' (known: " + STEP_KINDS + ")");
        };
    }

    private ArrivalSpec arrival(Node a) {
        a.allowOnly("an arrival process", "process", "rate", "to", "requests", "type", "response");
        String proc = subst(a, a.require("process", "arrival process").asText("process")).toLowerCase(Locale.ROOT);
        if (!proc.equals("poisson") && !proc.equals("deterministic")) {
            throw a.get("process").error("process must be poisson or deterministic, got '" + proc + "'");
        }
        double rate = number(a.require("rate", "arrival process"), "rate (per second)", 1e-12, 1e12);
        String to = sink(a.require("to", "arrival process"));
        int requests = integer(a.require("requests", "arrival process"), "requests", 1, 100_000_000);
        int type = -1;
        if (a.get("type") != null) {
            Node t = a.get("type");
            type = typeId(t, subst(t, t.asText("a request type")));
        }
        String response = a.get("response") == null ? null : measure(a.get("response"));
        return new ArrivalSpec(proc.equals("poisson"), rate, to,
                options.requests() != null ? options.requests() : requests, type, response);
    }

    /** Puts the measures the file lists first, in its order; an unrecorded one is an error. */
    private void measureListing(Node mo) {
        if (mo == null) {
            return;
        }
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

    /** A program that runs itself (directly or through others) would never end: an error. */
    private void checkProgramCycles() {
        List<String> done = new ArrayList<>();
        for (String name : programDefs.keySet()) {
            visit(name, done, new ArrayList<>());
        }
    }

    private void visit(String name, List<String> done, List<String> stack) {
        if (done.contains(name)) {
            return;
        }
        if (stack.contains(name)) {
            throw programDefs.get(name).error("program '" + name + "' runs itself (cycle: " + String.join(" -> ", stack)
                    + " -> " + name + ")");
        }
        stack.add(name);
        for (String callee : runs(programDefs.get(name))) {
            visit(callee, done, stack);
        }
        stack.remove(name);
        done.add(name);
    }

    /** The programs {@code steps} runs, in step order, including inside by_type. */
    private List<String> runs(Node steps) {
        List<String> out = new ArrayList<>();
        for (Node s : steps.asList("steps")) {
            String kind = s.asMap("step").keySet().iterator().next();
            Node v = s.get(kind);
            if (kind.equals("run")) {
                out.add(subst(v, v.asText("program")));
            } else if (kind.equals("by_type")) {
                for (Node sub : v.asMap("by_type").values()) {
                    out.addAll(runs(sub));
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ values and names

    /** Adds the names listed in {@code list} (may be absent) to {@code into}, each new in the shared name space. */
    private void names(Node list, String what, String each, List<String> into) {
        if (list == null) {
            return;
        }
        for (Node q : list.asList(what)) {
            String n = subst(q, q.asText(each));
            checkNewName(q, n);
            into.add(n);
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

    private String ref(Node n, String what, List<String> known) {
        String t = subst(n, n.asText(what));
        if (!known.contains(t)) {
            throw n.error("unknown " + what + " '" + t + "'" + (known.isEmpty() ? "" : " (defined: " + String.join(", ", known) + ")"));
        }
        return t;
    }

    private String program(Node n) {
        return ref(n, "program", new ArrayList<>(programDefs.keySet()));
    }

    private String sink(Node n) {
        List<String> sinks = new ArrayList<>(queueNames);
        sinks.addAll(linkDefs.keySet());
        return ref(n, "queue or link", sinks);
    }

    /** A stamp name; numbered in order of first use. */
    private String stamp(Node n) {
        String s = subst(n, n.asText("a stamp name"));
        slots.computeIfAbsent(s, k -> slots.size());
        return s;
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

    /** A request type's id; numbered in order of first use. */
    private int typeId(Node at, String t) {
        if (t.isBlank()) {
            throw at.error("request type must not be empty");
        }
        return types.computeIfAbsent(t, k -> types.size());
    }
}
