package io.sonde.sim.scenario;

import io.sonde.sim.cpu.SchedulerSpec;
import io.sonde.sim.random.Distribution;
import java.util.List;
import java.util.Objects;

/**
 * A scenario file after parsing and checking, with the variant, parameters and command-line
 * overrides applied: everything a replication is built from, and nothing that could still be
 * wrong. Immutable (lists are copied); produced by {@link ScenarioParser}, run by
 * {@link ScenarioRunner}.
 *
 * @param title the model name for the output (the file's {@code name:}, else the file name)
 * @param variant the variant applied, or null
 * @param arrivalRate the parameter {@code arrival_rate} as finally set (for the output), or null
 * @param warmupFraction the share of completions discarded as warm-up
 * @param machines the machines, in file order
 * @param queues the FIFO queue names, in file order
 * @param mutexes the mutex names, in file order
 * @param links the network links, ordered so that a link's target link comes first
 * @param programs the programs, in file order
 * @param threads the thread groups, in file order
 * @param arrivals the arrival processes, in file order
 * @param measures the measure names in output order
 * @param requestTypes the request type names; a type's id is its index
 */
public record ScenarioSpec(String title, String variant, String arrivalRate, double warmupFraction,
        List<MachineSpec> machines, List<String> queues, List<String> mutexes, List<LinkSpec> links,
        List<ProgramSpec> programs, List<ThreadSpec> threads, List<ArrivalSpec> arrivals, List<String> measures,
        List<String> requestTypes) {

    /** Copies the lists. */
    public ScenarioSpec {
        Objects.requireNonNull(title, "title");
        machines = List.copyOf(machines);
        queues = List.copyOf(queues);
        mutexes = List.copyOf(mutexes);
        links = List.copyOf(links);
        programs = List.copyOf(programs);
        threads = List.copyOf(threads);
        arrivals = List.copyOf(arrivals);
        measures = List.copyOf(measures);
        requestTypes = List.copyOf(requestTypes);
    }

    /** The program named {@code name}; an error if there is none (the parser resolved every reference). */
    public ProgramSpec program(String name) {
        for (ProgramSpec p : programs) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no program '" + name + "'");
    }

    /**
     * A machine.
     *
     * @param name its name (also the prefix of its utilisation measure)
     * @param cpus processors (after {@code --cpus})
     * @param speed speed relative to the reference machine the CPU demands are given for
     * @param scheduler its CPU scheduler (after {@code --scheduler})
     */
    public record MachineSpec(String name, int cpus, double speed, SchedulerSpec scheduler) {
        /** Checks for missing parts. */
        public MachineSpec {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(scheduler, "scheduler");
        }
    }

    /**
     * A network link: requests put into it arrive at {@code to} after a latency.
     *
     * @param name its name
     * @param latency the latency distribution (ms)
     * @param to the queue or link it delivers to
     */
    public record LinkSpec(String name, Distribution latency, String to) {
        /** Checks for missing parts. */
        public LinkSpec {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(latency, "latency");
            Objects.requireNonNull(to, "to");
        }
    }

    /**
     * A program.
     *
     * @param name its name
     * @param loop whether it repeats forever (it starts by taking a request from a queue)
     * @param steps its steps, in order
     */
    public record ProgramSpec(String name, boolean loop, List<StepSpec> steps) {
        /** Copies the steps. */
        public ProgramSpec {
            Objects.requireNonNull(name, "name");
            steps = List.copyOf(steps);
        }
    }

    /**
     * A group of threads running one program.
     *
     * @param name the thread name (with {@code -i} appended when {@code count > 1})
     * @param machine the machine they run on
     * @param program what they run
     * @param count how many
     */
    public record ThreadSpec(String name, String machine, String program, int count) {
        /** Checks for missing parts. */
        public ThreadSpec {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(machine, "machine");
            Objects.requireNonNull(program, "program");
        }
    }

    /**
     * An open arrival process.
     *
     * @param poisson Poisson arrivals (exponential gaps) rather than deterministic ones
     * @param ratePerSecond arrivals per second
     * @param to the queue or link the requests go to
     * @param requests how many requests (after {@code --requests})
     * @param type the request type id given to each request, or -1 for none
     * @param response the measure the response times go to, or null
     */
    public record ArrivalSpec(boolean poisson, double ratePerSecond, String to, long requests, int type,
            String response) {
        /** Checks for missing parts. */
        public ArrivalSpec {
            Objects.requireNonNull(to, "to");
        }
    }
}
