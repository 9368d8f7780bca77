package io.sonde.sim.blocks;

import io.sonde.sim.random.RandomStream;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.stats.Tally;
import java.util.Objects;

/**
 * One action of a {@link Program}. Programs are normally written with {@link Program.Builder};
 * extend this class only for actions the builder lacks.
 *
 * <p>Contract of {@link #execute}: do the action at the current time and return {@code true} to
 * go on with the next step immediately, or start something that takes time and return
 * {@code false}; the thread then continues with the next step when that completes — after
 * {@link SimThread#compute(double)} automatically, otherwise when the step's waiting ends with
 * {@link SimThread#resume()}.
 */
public abstract class Step {
    /** A short description for messages. */
    private final String label;

    /** A step described by {@code label}. */
    protected Step(String label) {
        this.label = Objects.requireNonNull(label, "label");
    }

    /** Executes the step for {@code thread}; see the class contract. */
    protected abstract boolean execute(SimThread thread);

    @Override
    public String toString() {
        return label;
    }

    static Request requireRequest(SimThread t, String what) {
        Request r = t.request();
        if (r == null) {
            throw new IllegalStateException("thread " + t.name() + " executes '" + what + "' without a current request");
        }
        return r;
    }

    /** Draws a duration from {@code source}; a negative or NaN sample is a model error naming the thread. */
    static double sample(SimThread t, SampleSource source, String what) {
        double v = source.next();
        if (v >= 0) {
            return v;
        }
        throw new IllegalStateException("thread " + t.name() + ": " + what + " sample " + v + " is negative or NaN");
    }

    /** A step that takes a sampled time: CPU work, or a delay without the CPU. */
    static final class Timed extends Step {
        private final SampleSource duration;
        private final boolean cpu;

        private Timed(String label, SampleSource duration, boolean cpu) {
            super(label);
            this.duration = Objects.requireNonNull(duration, label);
            this.cpu = cpu;
        }

        static Timed cpu(SampleSource demand) {
            return new Timed("cpu", demand, true);
        }

        static Timed delay(SampleSource delay) {
            return new Timed("delay", delay, false);
        }

        @Override
        protected boolean execute(SimThread t) {
            double d = sample(t, duration, cpu ? "CPU demand" : "delay");
            if (d == 0) {
                return true;
            }
            if (cpu) {
                t.compute(d);
            } else {
                t.sleep(d);
            }
            return false;
        }
    }

    static final class Lock extends Step {
        private final Mutex mutex;

        Lock(Mutex mutex) {
            super("lock " + mutex.name());
            this.mutex = mutex;
        }

        @Override
        protected boolean execute(SimThread t) {
            return mutex.lock(t);
        }
    }

    static final class Unlock extends Step {
        private final Mutex mutex;

        Unlock(Mutex mutex) {
            super("unlock " + mutex.name());
            this.mutex = mutex;
        }

        @Override
        protected boolean execute(SimThread t) {
            mutex.unlock(t);
            return true;
        }
    }

    static final class Get extends Step {
        private final RequestQueue queue;

        Get(RequestQueue queue) {
            super("get " + queue.name());
            this.queue = queue;
        }

        @Override
        protected boolean execute(SimThread t) {
            Request r = queue.take(t);
            if (r == null) {
                return false; // the queue delivers the next request and resumes the thread
            }
            t.setRequest(r);
            return true;
        }
    }

    static final class Forward extends Step {
        private final RequestSink target;

        Forward(RequestSink target) {
            super("forward");
            this.target = Objects.requireNonNull(target, "target");
        }

        @Override
        protected boolean execute(SimThread t) {
            Request r = requireRequest(t, "forward");
            t.setRequest(null);
            target.accept(r);
            return true;
        }
    }

    static final class Call extends Step {
        private final RequestSink target;

        Call(RequestSink target) {
            super("call");
            this.target = Objects.requireNonNull(target, "target");
        }

        @Override
        protected boolean execute(SimThread t) {
            Request r = requireRequest(t, "call");
            r.pushCaller(t);
            target.accept(r);
            return false; // resumed by the callee's reply
        }
    }

    static final class Reply extends Step {
        Reply() {
            super("reply");
        }

        @Override
        protected boolean execute(SimThread t) {
            Request r = requireRequest(t, "reply");
            t.setRequest(null);
            if (r.nestedCallers() > 0) {
                SimThread caller = r.popCaller();
                caller.setRequest(r);
                caller.resume();
            } else if (r.replyTo() != null) {
                r.replyTo().accept(r);
            } else {
                throw new IllegalStateException("thread " + t.name() + " replies to " + r + ", which has nowhere to reply to");
            }
            return true;
        }
    }

    static final class Run extends Step {
        private final Program program;

        Run(Program program) {
            super("run " + program.name());
            this.program = Objects.requireNonNull(program, "program");
        }

        @Override
        protected boolean execute(SimThread t) {
            t.push(program);
            return true;
        }
    }

    static final class Spawn extends Step {
        private final String name;
        private final Program program;
        private final boolean handOver;

        Spawn(String name, Program program, boolean handOver) {
            super("spawn " + name);
            this.name = Objects.requireNonNull(name, "name");
            this.program = Objects.requireNonNull(program, "program");
            this.handOver = handOver;
        }

        @Override
        protected boolean execute(SimThread t) {
            Request r = null;
            if (handOver) {
                r = requireRequest(t, "spawn with hand-over");
                t.setRequest(null);
            }
            SimThread child = new SimThread(t.machine(), name + "-" + t.sim().nextId(), t.nice(), t, program, r);
            child.start();
            return true;
        }
    }

    static final class Exit extends Step {
        Exit() {
            super("exit");
        }

        @Override
        protected boolean execute(SimThread t) {
            t.finish();
            return false;
        }
    }

    static final class Action extends Step {
        private final ThreadAction action;

        Action(String label, ThreadAction action) {
            super(label);
            this.action = Objects.requireNonNull(action, "action");
        }

        @Override
        protected boolean execute(SimThread t) {
            action.run(t, t.request());
            return true;
        }
    }

    static final class Record extends Step {
        private final Tally tally;
        private final int slot;
        private final boolean threadSlot;

        Record(Tally tally, int slot, boolean threadSlot) {
            super("record " + tally.name());
            this.tally = Objects.requireNonNull(tally, "tally");
            this.slot = slot;
            this.threadSlot = threadSlot;
        }

        @Override
        protected boolean execute(SimThread t) {
            double span = threadSlot ? t.since(slot) : requireRequest(t, "record " + tally.name()).since(slot);
            if (!Double.isNaN(span)) {
                tally.add(span);
            }
            return true;
        }
    }

    static final class Branch extends Step {
        private final RandomStream stream;
        private final double[] cumulative;
        private final Program[] programs;

        Branch(RandomStream stream, double[] probabilities, Program[] programs) {
            super("branch");
            this.stream = Objects.requireNonNull(stream, "stream");
            if (probabilities.length == 0 || probabilities.length != programs.length) {
                throw new IllegalArgumentException("branch needs one probability per program (and at least one)");
            }
            this.cumulative = new double[probabilities.length];
            double sum = 0;
            for (int i = 0; i < probabilities.length; i++) {
                if (!(probabilities[i] >= 0)) {
                    throw new IllegalArgumentException("branch probability #" + (i + 1) + " is " + probabilities[i]);
                }
                sum += probabilities[i];
                cumulative[i] = sum;
            }
            if (Math.abs(sum - 1) > 1e-9) {
                throw new IllegalArgumentException("branch probabilities sum to " + sum + ", not 1");
            }
            cumulative[cumulative.length - 1] = 1;
            this.programs = programs.clone();
        }

        @Override
        protected boolean execute(SimThread t) {
            double u = stream.nextDouble();
            int i = 0;
            while (u >= cumulative[i]) {
                i++;
            }
            t.push(programs[i]);
            return true;
        }
    }

    static final class ByType extends Step {
        private final Program[] programs;

        ByType(Program[] programs) {
            super("by-type");
            this.programs = programs.clone();
        }

        @Override
        protected boolean execute(SimThread t) {
            Request r = requireRequest(t, "by-type");
            int type = r.type();
            if (type < 0 || type >= programs.length || programs[type] == null) {
                throw new IllegalStateException("thread " + t.name() + ": no program for request type " + type);
            }
            t.push(programs[type]);
            return true;
        }
    }
}
