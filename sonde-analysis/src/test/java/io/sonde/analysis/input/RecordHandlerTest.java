package io.sonde.analysis.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordHandlerTest {

    /**
     * A handler method that {@code both} does not forward would silently reach only the default
     * no-op (as the hole notification once did behind a wrapping handler): every method of the
     * interface, called on the combination, must reach both handlers, in order.
     */
    @Test
    void bothForwardsEveryMethodToBothHandlersInOrder() throws Exception {
        List<String> calls = new ArrayList<>();
        RecordHandler first = recording("first", calls);
        RecordHandler second = recording("second", calls);
        RecordHandler both = RecordHandler.both(first, second);
        List<Method> methods = Arrays.stream(RecordHandler.class.getMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers())).toList();
        assertThat(methods).hasSizeGreaterThan(10);
        for (Method m : methods) {
            calls.clear();
            m.invoke(both, arguments(m));
            assertThat(calls).as(m.getName()).containsExactly("first." + m.getName(), "second." + m.getName());
        }
    }

    private static RecordHandler recording(String name, List<String> calls) {
        return (RecordHandler) Proxy.newProxyInstance(RecordHandler.class.getClassLoader(), new Class<?>[] {RecordHandler.class},
                (proxy, method, args) -> {
                    calls.add(name + "." + method.getName());
                    return null;
                });
    }

    private static Object[] arguments(Method m) {
        Class<?>[] types = m.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i];
            args[i] = t == int.class ? (Object) 0 : t == long.class ? (Object) 0L : null;
        }
        return args;
    }
}
