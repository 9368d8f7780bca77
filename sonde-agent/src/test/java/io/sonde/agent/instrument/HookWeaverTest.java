package io.sonde.agent.instrument;

import static io.sonde.agent.instrument.ProbeWeaverTest.classFile;
import static io.sonde.agent.instrument.ProbeWeaverTest.isolated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.agent.instrument.HookWeaver.Hook;
import io.sonde.agent.sample.HookCalls;
import io.sonde.agent.sample.HookShapes;
import io.sonde.agent.sample.WeaveShapes;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hook weaver on real class files, defined in a loader of their own so the JVM verifies them
 * (stack map frames included): the hooked methods compute what the originals compute, the hooks
 * are called with the right values, and a hook that throws changes nothing.
 */
class HookWeaverTest {

    private static final String CALLS = HookCalls.class.getName().replace('.', '/');
    private static final String SHAPES = HookShapes.class.getName();

    @BeforeEach
    @AfterEach
    void reset() {
        HookCalls.CALLS.clear();
        HookCalls.fail = false;
    }

    @Test
    void aTokenHookOnEveryMethodOfTheWeaveShapesKeepsWhatTheyComputeAndEndsEachEntry() throws Exception {
        String name = WeaveShapes.class.getName();
        List<Hook> hooks = new ArrayList<>();
        Arrays.stream(WeaveShapes.class.getDeclaredMethods()).map(Method::getName).distinct().forEach(m ->
                hooks.add(Hook.call(m, d -> true, CALLS, "begin", "()Ljava/lang/Object;").endingWith("end")));
        byte[] woven = HookWeaver.weave(classFile(name), hooks);
        assertThat(woven).isNotNull();

        // its nested classes beside it, as they are (a nest shares one loader)
        Map<String, byte[]> classes = Map.of(name, woven, WeaveShapes.Shape.class.getName(),
                classFile(WeaveShapes.Shape.class.getName()), name + "$1", classFile(name + "$1"));
        Object digest = Class.forName(name, true, isolated(classes)).getMethod("digest").invoke(null);

        assertThat(digest).isEqualTo(WeaveShapes.digest());
        List<String> calls = HookCalls.CALLS;
        long begins = calls.stream().filter(c -> c.equals("begin()")).count();
        assertThat(begins).as("calls: %s", calls).isGreaterThan(10);
        assertThat(calls.stream().filter(c -> c.startsWith("end(token")).count()).as("calls: %s", calls).isEqualTo(begins);
    }

    @Test
    void aReplacingHookSetsTheArgument() throws Exception {
        Object shapes = wovenShapes(Hook.call("echo", "(Ljava/lang/String;)Ljava/lang/String;"::equals, CALLS, "upper",
                "(Ljava/lang/Object;)Ljava/lang/Object;", 0).replacing(0));

        assertThat(shapes.getClass().getMethod("echo", String.class).invoke(shapes, "abc")).isEqualTo("ABC");
        assertThat(HookCalls.CALLS).containsExactly("upper(abc)");
    }

    @Test
    void aTokenHookEndsOnReturnAndOnAnExceptionLeavingTheMethod() throws Exception {
        Object shapes = wovenShapes(Hook.call("count", d -> true, CALLS, "begin", "()Ljava/lang/Object;").endingWith("end"));
        Method count = shapes.getClass().getMethod("count", long.class, int.class);

        assertThat(count.invoke(shapes, 5L, 4)).isEqualTo(new HookShapes().count(5L, 4));
        assertThat(HookCalls.CALLS).containsExactly("begin()", "end(token0)");
        assertThatThrownBy(() -> count.invoke(shapes, 0L, -1))
                .isInstanceOf(InvocationTargetException.class)
                .cause().isInstanceOf(IllegalStateException.class).hasMessage("negative");
        assertThat(HookCalls.CALLS).containsExactly("begin()", "end(token0)", "begin()", "end(token2)");
    }

    @Test
    void theReceiverAndALongAfterADoubleArePassed() throws Exception {
        Object shapes = wovenShapes(Hook.call("scale", d -> true, CALLS, "seen", "(Ljava/lang/Object;J)J", Hook.THIS, 1));

        assertThat(shapes.getClass().getMethod("scale", double.class, long.class).invoke(shapes, 1.5, 4L)).isEqualTo(6.0);
        assertThat(HookCalls.CALLS).containsExactly("seen(HookShapes, 4)");
    }

    @Test
    void hooksThatThrowChangeNothing() throws Exception {
        Object shapes = wovenShapes(
                Hook.call("echo", d -> true, CALLS, "upper", "(Ljava/lang/Object;)Ljava/lang/Object;", 0).replacing(0),
                Hook.call("count", d -> true, CALLS, "begin", "()Ljava/lang/Object;").endingWith("end"));
        HookCalls.fail = true;

        assertThat(shapes.getClass().getMethod("echo", String.class).invoke(shapes, "abc")).isEqualTo("abc");
        assertThat(shapes.getClass().getMethod("count", long.class, int.class).invoke(shapes, 5L, 4))
                .isEqualTo(new HookShapes().count(5L, 4));
        assertThat(HookCalls.CALLS).as("the argument kept; the token null when the entry failed")
                .containsExactly("upper(abc)", "begin()", "end(null)");
    }

    @Test
    void aClassNoHookMatchesIsLeftAlone() throws Exception {
        assertThat(HookWeaver.weave(classFile(SHAPES),
                List.of(Hook.call("absent", d -> true, CALLS, "begin", "()Ljava/lang/Object;")))).isNull();
        assertThat(HookWeaver.weave(classFile(SHAPES),
                List.of(Hook.call("echo", "()V"::equals, CALLS, "begin", "()Ljava/lang/Object;")))).isNull();
    }

    /** A HookShapes of the class woven with the hooks, in a loader of its own. */
    private static Object wovenShapes(Hook... hooks) throws Exception {
        byte[] woven = HookWeaver.weave(classFile(SHAPES), List.of(hooks));
        assertThat(woven).isNotNull();
        Class<?> c = Class.forName(SHAPES, true, isolated(Map.of(SHAPES, woven)));
        assertThat(c.getClassLoader()).isNotSameAs(HookShapes.class.getClassLoader());
        return c.getConstructor().newInstance();
    }
}
