package io.sonde.agent.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an advice parameter that receives the instrumented method's probe id as a constant: the
 * probe is registered when the class is transformed, and the woven code pushes the int literal.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface ProbeId {}
