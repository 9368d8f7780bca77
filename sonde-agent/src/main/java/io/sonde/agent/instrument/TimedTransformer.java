package io.sonde.agent.instrument;

import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * Wraps Byte Buddy's class-file transformer to time every call (woven or passed over) for
 * {@link WeaveStats}. Only installed when the statistics are on.
 */
final class TimedTransformer extends ResettableClassFileTransformer.WithDelegation {

    private final WeaveStats stats;

    private TimedTransformer(ResettableClassFileTransformer delegate, WeaveStats stats) {
        super(delegate);
        this.stats = stats;
    }

    /** The decorator for the agent builder: no wrapping when the statistics are off. */
    static AgentBuilder.TransformerDecorator decorator(WeaveStats stats) {
        return t -> stats.on() ? new TimedTransformer(t, stats) : t;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
            byte[] classFile) throws IllegalClassFormatException {
        long t0 = stats.start();
        byte[] woven = classFileTransformer.transform(module, loader, name, redefined, domain, classFile);
        stats.end(woven == null ? WeaveStats.Phase.TRANSFORM_PASSED : WeaveStats.Phase.TRANSFORM_WOVEN, t0);
        return woven;
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
            byte[] classFile) throws IllegalClassFormatException {
        long t0 = stats.start();
        byte[] woven = classFileTransformer.transform(loader, name, redefined, domain, classFile);
        stats.end(woven == null ? WeaveStats.Phase.TRANSFORM_PASSED : WeaveStats.Phase.TRANSFORM_WOVEN, t0);
        return woven;
    }
}
