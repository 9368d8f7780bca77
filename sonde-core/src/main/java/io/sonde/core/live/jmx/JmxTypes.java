package io.sonde.core.live.jmx;

import io.sonde.api.live.ValueType;

/** Which JMX attribute types the bridge shows, as which live value type, and the conversion. */
final class JmxTypes {
    private JmxTypes() {}

    /** The live type of an attribute of JMX type {@code className}, or null when it is not a simple type. */
    static ValueType simpleType(String className) {
        if (className == null) return null;
        switch (className) {
            case "long": case "int": case "short": case "byte":
            case "java.lang.Long": case "java.lang.Integer": case "java.lang.Short": case "java.lang.Byte":
                return ValueType.LONG;
            case "double": case "float": case "java.lang.Double": case "java.lang.Float":
                return ValueType.DOUBLE;
            case "boolean": case "java.lang.Boolean":
                return ValueType.BOOLEAN;
            case "java.lang.String":
                return ValueType.STRING;
            default:
                return null;
        }
    }

    /** {@code v} as the boxed value of {@code t} (Long, Double, Boolean, String), or null if it is not one. */
    static Object convert(Object v, ValueType t) {
        switch (t) {
            case LONG: return v instanceof Number ? (Object) ((Number) v).longValue() : null;
            case DOUBLE: return v instanceof Number ? (Object) ((Number) v).doubleValue() : null;
            case BOOLEAN: return v instanceof Boolean ? v : null;
            default: return v == null ? null : v.toString();
        }
    }
}
