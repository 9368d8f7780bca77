package io.sonde.agent.instrument;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Binds {@link ProbeId} parameters: while Byte Buddy weaves a method it asks this mapping for the
 * value, and the mapping registers the method's probe (name = binary class name + '.' + method
 * name, signature = JVM descriptor) and answers with the id as a constant. Enter and exit advice
 * both ask; the catalog returns the same id for the same method.
 */
final class ProbeIdMapping implements Advice.OffsetMapping.Factory<ProbeId> {

    private final ProbeCatalog catalog;
    private final WeaveStats stats;

    ProbeIdMapping(ProbeCatalog catalog, WeaveStats stats) {
        this.catalog = catalog;
        this.stats = stats;
    }

    @Override
    public Class<ProbeId> getAnnotationType() {
        return ProbeId.class;
    }

    @Override
    public Advice.OffsetMapping make(
            ParameterDescription.InDefinedShape target,
            AnnotationDescription.Loadable<ProbeId> annotation,
            AdviceType adviceType) {
        if (!target.getType().represents(int.class)) {
            throw new IllegalStateException("@ProbeId must annotate an int parameter: " + target);
        }
        return new Advice.OffsetMapping() {
            @Override
            public Target resolve(
                    TypeDescription instrumentedType,
                    MethodDescription instrumentedMethod,
                    Assigner assigner,
                    Advice.ArgumentHandler argumentHandler,
                    Sort sort) {
                long t0 = stats.start();
                int id = catalog.probeFor(
                        instrumentedType.getName() + "." + instrumentedMethod.getInternalName(),
                        instrumentedMethod.getDescriptor());
                stats.end(WeaveStats.Phase.PROBE_IDS, t0);
                return Target.ForStackManipulation.of(id);
            }
        };
    }
}
