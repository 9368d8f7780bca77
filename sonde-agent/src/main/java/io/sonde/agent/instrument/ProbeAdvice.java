package io.sonde.agent.instrument;

import io.sonde.core.probe.Probes;
import net.bytebuddy.asm.Advice;

/**
 * The code woven into every selected method (inlined by Byte Buddy, so no call to this class
 * remains): calls to the core's static entry points {@link Probes}. The probe id is a constant in the woven code; the enter advice returns whether the
 * call was recorded, and the exit advice passes that back so a probe switched off between enter
 * and exit stays consistent. {@code suppress} makes sure a failure inside Sonde never reaches
 * the application: the method then simply runs unrecorded.
 */
public final class ProbeAdvice {

    private ProbeAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static boolean enter(@ProbeId int id) {
        return Probes.enter(id);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@ProbeId int id, @Advice.Enter boolean entered, @Advice.Thrown Throwable thrown) {
        if (thrown == null) {
            Probes.exit(id, entered);
        } else {
            Probes.exitExceptionally(id, entered, thrown);
        }
    }
}
