package io.sonde.sim.scenario;

import io.sonde.sim.random.Distribution;
import java.util.List;
import java.util.Objects;

/**
 * One step of a scenario program after parsing: one record per step kind of the file format
 * (docs/simulator.md, "Scenario files"). Names are resolved and checked; stamps, measures and
 * request types carry both their name and the number the replication uses.
 */
public sealed interface StepSpec {

    /** {@code cpu:} uses the CPU for a demand (ms at reference speed) drawn from {@code demand}. */
    record Cpu(Distribution demand) implements StepSpec {
        /** Checks for missing parts. */
        public Cpu {
            Objects.requireNonNull(demand, "demand");
        }
    }

    /** {@code delay:} waits without using the CPU. */
    record Delay(Distribution delay) implements StepSpec {
        /** Checks for missing parts. */
        public Delay {
            Objects.requireNonNull(delay, "delay");
        }
    }

    /** {@code lock:} locks a mutex. */
    record Lock(String mutex) implements StepSpec {
        /** Checks for missing parts. */
        public Lock {
            Objects.requireNonNull(mutex, "mutex");
        }
    }

    /** {@code unlock:} unlocks a mutex. */
    record Unlock(String mutex) implements StepSpec {
        /** Checks for missing parts. */
        public Unlock {
            Objects.requireNonNull(mutex, "mutex");
        }
    }

    /** {@code get:} takes the next request from a queue. */
    record Get(String queue) implements StepSpec {
        /** Checks for missing parts. */
        public Get {
            Objects.requireNonNull(queue, "queue");
        }
    }

    /** {@code forward:} hands the request on to a queue or link and goes on without it. */
    record Forward(String target) implements StepSpec {
        /** Checks for missing parts. */
        public Forward {
            Objects.requireNonNull(target, "target");
        }
    }

    /** {@code call:} hands the request to a queue or link and waits for the reply. */
    record Call(String target) implements StepSpec {
        /** Checks for missing parts. */
        public Call {
            Objects.requireNonNull(target, "target");
        }
    }

    /** {@code reply:} replies to the innermost caller or the client. */
    record Reply() implements StepSpec {}

    /** {@code exit:} ends the thread. */
    record Exit() implements StepSpec {}

    /** {@code mark:} stamps the request with the current time in stamp {@code stamp} (number {@code slot}). */
    record Mark(String stamp, int slot) implements StepSpec {
        /** Checks for missing parts. */
        public Mark {
            Objects.requireNonNull(stamp, "stamp");
        }
    }

    /** {@code record:} adds the time since stamp {@code since} (number {@code slot}) to {@code measure}. */
    record Record(String measure, String since, int slot) implements StepSpec {
        /** Checks for missing parts. */
        public Record {
            Objects.requireNonNull(measure, "measure");
            Objects.requireNonNull(since, "since");
        }
    }

    /** {@code type:} sets the request's type {@code type} (id {@code id}). */
    record SetType(String type, int id) implements StepSpec {
        /** Checks for missing parts. */
        public SetType {
            Objects.requireNonNull(type, "type");
        }
    }

    /** {@code by_type:} runs the steps of the case matching the request's type (none: nothing). */
    record ByType(List<Case> cases) implements StepSpec {
        /** Copies the cases. */
        public ByType {
            cases = List.copyOf(cases);
        }

        /** The steps for request type {@code type} (id {@code id}). */
        public record Case(String type, int id, List<StepSpec> steps) {
            /** Copies the steps. */
            public Case {
                Objects.requireNonNull(type, "type");
                steps = List.copyOf(steps);
            }
        }
    }

    /** {@code run:} runs another program as a subroutine. */
    record Run(String program) implements StepSpec {
        /** Checks for missing parts. */
        public Run {
            Objects.requireNonNull(program, "program");
        }
    }
}
