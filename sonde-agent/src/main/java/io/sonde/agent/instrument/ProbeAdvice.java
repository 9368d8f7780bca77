package io.sonde.agent.instrument;

import net.bytebuddy.asm.Advice;

/**
 * The code woven into every selected method (inlined by Byte Buddy, so no call to this class
 * remains). The probe id is a constant in the woven code; the enter advice returns whether the
 * call was recorded, and the exit advice passes that back so a probe switched off between enter
 * and exit stays consistent. {@code suppress} makes sure a failure inside Sonde never reaches
 * the application: the method then simply runs unrecorded.
 */
public final class ProbeAdvice {

    private ProbeAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static boolean enter(@ProbeId int id) {
        return Hooks.enter(id);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@ProbeId int id, @Advice.Enter boolean entered, @Advice.Thrown Throwable thrown) {
        if (thrown == null) {
            Hooks.exit(id, entered);
        } else {
            Hooks.exitExceptionally(id, entered, thrown);
        }
    }
}
