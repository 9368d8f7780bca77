package io.sonde.sim.blocks;

import io.sonde.sim.random.RandomStream;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.stats.Tally;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link SimThread} does: a sequence of {@link Step}s, run once or repeated forever (a
 * server thread's loop). Build one with {@link #once(String)} or {@link #loop(String)}:
 *
 * <pre>{@code
 * Program dispatcher = Program.loop("dispatcher")
 *     .get(poolQueue)                  // blocking get from the pool's FIFO queue
 *     .mark(DISPATCH_START)            // stamp slot on the request
 *     .cpu(bDisp).cpu(bUnm)
 *     .lock(poaMutex).cpu(bSer).unlock(poaMutex)
 *     .delay(bSern)                    // not using the CPU
 *     .cpu(bMar).cpu(bReply)
 *     .reply()                         // to the nested caller or the client
 *     .build();
 * }</pre>
 *
 * A program is immutable and may be shared by many threads of one replication.
 */
public final class Program {
    private final String name;
    private final boolean repeat;
    private final Step[] steps;

    private Program(String name, boolean repeat, List<Step> steps) {
        this.name = name;
        this.repeat = repeat;
        this.steps = steps.toArray(new Step[0]);
    }

    /** A builder for a program run once (the thread exits at its end unless it is nested). */
    public static Builder once(String name) {
        return new Builder(name, false);
    }

    /** A builder for a program repeated forever; it must contain a step that blocks. */
    public static Builder loop(String name) {
        return new Builder(name, true);
    }

    /** The program's name. */
    public String name() {
        return name;
    }

    /** Whether it repeats. */
    public boolean repeats() {
        return repeat;
    }

    /** Number of steps. */
    public int size() {
        return steps.length;
    }

    /** Step {@code i}. */
    public Step step(int i) {
        return steps[i];
    }

    /** The steps, in order. */
    public List<Step> steps() {
        return Collections.unmodifiableList(List.of(steps));
    }

    @Override
    public String toString() {
        return name + (repeat ? " (loop)" : "") + List.of(steps);
    }

    /** Builds a {@link Program}; every method appends one or two steps. */
    public static final class Builder {
        private final String name;
        private final boolean repeat;
        private final List<Step> steps = new ArrayList<>();

        private Builder(String name, boolean repeat) {
            this.name = Objects.requireNonNull(name, "name");
            this.repeat = repeat;
        }

        /** Uses the CPU for a demand (ms at reference speed) drawn from {@code demand}. */
        public Builder cpu(SampleSource demand) {
            return step(Step.Timed.cpu(demand));
        }

        /** Waits for a time drawn from {@code delay} without using the CPU (sleep, remote call, disk). */
        public Builder delay(SampleSource delay) {
            return step(Step.Timed.delay(delay));
        }

        /** Locks {@code mutex}, blocking while another thread holds it. */
        public Builder lock(Mutex mutex) {
            return step(new Step.Lock(mutex));
        }

        /** Unlocks {@code mutex}, handing it to the first waiter. */
        public Builder unlock(Mutex mutex) {
            return step(new Step.Unlock(mutex));
        }

        /** Takes a permit of {@code semaphore}, blocking until one is free. */
        public Builder acquire(Semaphore semaphore) {
            return step(new Semaphore.Acquire(semaphore));
        }

        /** Returns a permit of {@code semaphore}, handing it to the first waiter. */
        public Builder release(Semaphore semaphore) {
            return step(new Semaphore.Release(semaphore));
        }

        /** Takes the next request from {@code queue} as the current request, blocking while it is empty. */
        public Builder get(RequestQueue queue) {
            return step(new Step.Get(queue));
        }

        /**
         * Forwarding call: hands the current request to {@code target} (a queue in front of other
         * threads, a network link...) and goes on without it; whoever gets it is responsible for
         * the reply.
         */
        public Builder forward(RequestSink target) {
            return step(new Step.Forward(target));
        }

        /**
         * Nested call: hands the current request to {@code target} and blocks until a thread there
         * executes {@link #reply()}; then goes on with the request.
         */
        public Builder call(RequestSink target) {
            return step(new Step.Call(target));
        }

        /**
         * Replies: the current request goes back to the thread blocked in the innermost nested
         * call on it, or else to the request's {@code replyTo} sink (the client). The thread goes
         * on without it (its 2nd phase, if any).
         */
        public Builder reply() {
            return step(new Step.Reply());
        }

        /** Runs {@code program} in this thread (a subroutine), then goes on. */
        public Builder run(Program program) {
            return step(new Step.Run(program));
        }

        /**
         * Creates a thread on the same machine running {@code program} once (it exits at the end),
         * handing it the current request. The creator goes on at once.
         */
        public Builder spawn(String threadName, Program program) {
            return step(new Step.Spawn(threadName, program, true));
        }

        /** As {@link #spawn(String, Program)}, preceded by the creation cost on the creator's CPU. */
        public Builder spawn(String threadName, Program program, SampleSource creationCost) {
            cpu(creationCost);
            return step(new Step.Spawn(threadName, program, true));
        }

        /** Creates a thread running {@code program} without handing it a request. */
        public Builder spawnWithoutRequest(String threadName, Program program) {
            return step(new Step.Spawn(threadName, program, false));
        }

        /** Terminates the thread. */
        public Builder exit() {
            return step(new Step.Exit());
        }

        /** Uses the CPU for the exit cost, then terminates the thread. */
        public Builder exit(SampleSource exitCost) {
            cpu(exitCost);
            return step(new Step.Exit());
        }

        /** Stores the current time in the current request's stamp slot {@code slot}. */
        public Builder mark(int slot) {
            return action("mark " + slot, (t, r) -> Step.requireRequest(t, "mark " + slot).mark(slot));
        }

        /** Stores the current time in the thread's own stamp slot {@code slot} (spans that outlive a request). */
        public Builder markThread(int slot) {
            return action("mark-thread " + slot, (t, r) -> t.mark(slot));
        }

        /** Adds (now - request stamp {@code slot}) to {@code tally}; skipped if the slot is unset. */
        public Builder record(Tally tally, int slot) {
            return step(new Step.Record(tally, slot, false));
        }

        /** Adds (now - thread stamp {@code slot}) to {@code tally}; skipped if the slot is unset. */
        public Builder recordThread(Tally tally, int slot) {
            return step(new Step.Record(tally, slot, true));
        }

        /** Runs model code as an instantaneous step. */
        public Builder action(String label, ThreadAction action) {
            return step(new Step.Action(label, action));
        }

        /** Runs {@code programs[i]} with probability {@code probabilities[i]} (drawn from {@code stream}). */
        public Builder branch(RandomStream stream, double[] probabilities, Program... programs) {
            return step(new Step.Branch(stream, probabilities, programs));
        }

        /** Runs {@code programs[request.type()]}. */
        public Builder byType(Program... programs) {
            return step(new Step.ByType(programs));
        }

        /** Appends a custom step. */
        public Builder step(Step step) {
            steps.add(Objects.requireNonNull(step, "step"));
            return this;
        }

        /** The program. */
        public Program build() {
            if (steps.isEmpty()) {
                throw new IllegalArgumentException("program " + name + " has no steps");
            }
            return new Program(name, repeat, steps);
        }
    }
}
