package io.sonde.agent;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.util.jar.JarFile;

/**
 * Entry point named in the agent jar's manifest ({@code Premain-Class} and {@code Agent-Class}).
 *
 * <p>This class is loaded by the system class loader and does one thing: it puts the agent jar on
 * the bootstrap class path and hands over to {@link AgentRuntime}, loaded from there. Why: the
 * advice woven into application classes calls Sonde's static entry points, and a class loaded by
 * any loader (the bootstrap loader for {@code java.util.concurrent}, isolated web-app or plug-in
 * loaders) can link to classes of the bootstrap loader, but not to the system loader's. So this
 * class must not touch any other Sonde class before the jar is appended.
 *
 * <p>Nothing here may fail the application: every problem becomes one line on stderr.
 */
public final class SondeAgent {

    private SondeAgent() {}

    /** Called by the JVM for {@code -javaagent:sonde-agent.jar=OPTIONS}. */
    public static void premain(String options, Instrumentation inst) {
        launch(options, inst, false);
    }

    /** Called by the JVM when the agent is attached to a running JVM ({@code sonde attach}). */
    public static void agentmain(String options, Instrumentation inst) {
        launch(options, inst, true);
    }

    private static void launch(String options, Instrumentation inst, boolean dynamic) {
        long entered = System.nanoTime(); // the start of the agent's phases (see StartPhases)
        try {
            ClassLoader runtimeLoader = SondeAgent.class.getClassLoader();
            File jar = agentJar();
            if (jar != null) {
                if (!onBootstrapClassPath()) {
                    inst.appendToBootstrapClassLoaderSearch(new JarFile(jar));
                }
                runtimeLoader = null; // load the runtime from the bootstrap class path
            }
            long appended = System.nanoTime();
            Class<?> runtime = Class.forName("io.sonde.agent.AgentRuntime", true, runtimeLoader);
            runtime.getMethod("start", String.class, Instrumentation.class, boolean.class, String.class, long.class,
                            long.class)
                    .invoke(null, options, inst, dynamic, jar == null ? null : jar.getPath(), entered, appended);
        } catch (Throwable t) {
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException && t.getCause() != null
                    ? t.getCause() : t;
            System.err.println("sonde-agent: could not start, the application runs unmonitored: " + cause);
        }
    }

    /** True when the manifest's Boot-Class-Path already put the jar on the bootstrap class path. */
    private static boolean onBootstrapClassPath() {
        try {
            Class.forName("io.sonde.agent.AgentRuntime", false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** The jar this class came from, or null when run from a class directory (tests). */
    private static File agentJar() throws Exception {
        java.security.CodeSource source = SondeAgent.class.getProtectionDomain().getCodeSource();
        URL location = source == null ? null : source.getLocation();
        if (location == null) {
            // Loaded by the bootstrap loader (Boot-Class-Path): no code source; ask for the resource.
            URL self = ClassLoader.getSystemResource("io/sonde/agent/SondeAgent.class");
            if (self == null || !"jar".equals(self.getProtocol())) {
                return null;
            }
            location = ((java.net.JarURLConnection) self.openConnection()).getJarFileURL();
        }
        File f = new File(location.toURI());
        return f.isFile() ? f : null;
    }
}
