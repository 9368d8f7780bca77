package io.sonde.agent.instrument;

import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * Wraps Byte Buddy's class-file transformer to time every call: each woven class is counted with
 * its time ({@link WeaveStats#woven}, always), and with {@code weave.stats=on} every call, woven or
 * passed over, goes to the phase figures too.
 */
final class TimedTransformer extends ResettableClassFileTransformer.WithDelegation {

    private final WeaveStats stats;

    private TimedTransformer(ResettableClassFileTransformer delegate, WeaveStats stats) {
        super(delegate);
        this.stats = stats;
    }

    /** The decorator for the agent builder. */
    static AgentBuilder.TransformerDecorator decorator(WeaveStats stats) {
        return t -> new TimedTransformer(t, stats);
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
            byte[] classFile) throws IllegalClassFormatException {
        long t0 = System.nanoTime();
        byte[] woven = classFileTransformer.transform(module, loader, name, redefined, domain, classFile);
        return timed(name, woven, t0);
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
            byte[] classFile) throws IllegalClassFormatException {
        long t0 = System.nanoTime();
        byte[] woven = classFileTransformer.transform(loader, name, redefined, domain, classFile);
        return timed(name, woven, t0);
    }

    private byte[] timed(String name, byte[] woven, long t0) {
        if (woven != null) {
            stats.woven(name, System.nanoTime() - t0);
        }
        stats.end(woven == null ? WeaveStats.Phase.TRANSFORM_PASSED : WeaveStats.Phase.TRANSFORM_WOVEN, t0);
        return woven;
    }
}
