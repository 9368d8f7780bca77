package io.sonde.agent.instrument;

import io.sonde.agent.AgentLog;
import io.sonde.core.control.AgentState;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Keeps HotSpot's C2 compiler off the weaver while an attach re-transforms the loaded classes.
 *
 * <p>Why: during an attach both cores of a small machine are busy, and much of the CPU went to the
 * JIT compiling the weaver (ASM's reader and writer, the agent's method visitors) with C2, work
 * that pays off only after the re-transformation is nearly over. With a compiler directive that
 * excludes those methods from C2 they stay C1-compiled: an attach of {@code org.h2.*} took 0.76
 * instead of 0.96 s and 1.3 instead of 1.85 s of the target's CPU (docs/benchmarks.md, "Attach:
 * the handshake and the weaver kept off C2").
 *
 * <p>How: the directive is added through the {@code DiagnosticCommand} MBean
 * ({@code Compiler.directives_add}, as {@code jcmd} does; no JVM flag needed) and removed again
 * when the re-transformation is done ({@code Compiler.directives_remove} pops the latest
 * directive). A method C2 was kept off stays C1-compiled for the JVM's life, so classes loaded
 * later are woven by C1 code (about as fast once warm). Only the weaver's packages match: the
 * probes' own code ({@code io.sonde.core.probe}) and the application are compiled as ever. Where
 * the MBean or the command is missing (another JVM), nothing is changed.
 *
 * <p>{@code sonde attach} adds the same directive itself through its attach connection before it
 * loads the agent (and removes it when the weaving is done), so that the agent's attach does
 * not start the platform MBean server before its weaving; this class is the agent's way for
 * other clients.
 */
public final class WeaverCompilation implements AutoCloseable {

    private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";
    private static final String[] STRING_ARRAY = {String[].class.getName()};

    private final MBeanServer server;

    private WeaverCompilation(MBeanServer server) {
        this.server = server;
    }

    /**
     * Adds the directive; close the result to remove it. Never throws: when the directive cannot be
     * added, the result does nothing and one line says why.
     */
    public static WeaverCompilation c2Off() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(DIAGNOSTIC_COMMAND);
            if (!server.isRegistered(name)) {
                return new WeaverCompilation(null);
            }
            // the command reads a file: written, read at once, deleted
            Path file = Files.createTempFile("sonde-weaver-directive", ".json");
            try {
                Files.writeString(file, AgentState.WEAVER_C2_DIRECTIVE, StandardCharsets.UTF_8);
                Object answer = server.invoke(name, "compilerDirectivesAdd",
                        new Object[] {new String[] {file.toString()}}, STRING_ARRAY);
                if (String.valueOf(answer).contains("1 compiler directives added")) {
                    return new WeaverCompilation(server);
                }
                AgentLog.info("the weaver stays on C2 while re-transforming: " + String.valueOf(answer).trim());
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (Exception | LinkageError e) {
            AgentLog.info("the weaver stays on C2 while re-transforming: " + e);
        }
        return new WeaverCompilation(null);
    }

    /**
     * Removes the directive. The command pops the latest one: a directive someone added during the
     * re-transformation (none is expected) would go instead of this one.
     */
    @Override
    public void close() {
        if (server == null) {
            return;
        }
        try {
            server.invoke(new ObjectName(DIAGNOSTIC_COMMAND), "compilerDirectivesRemove", new Object[0], new String[0]);
        } catch (Exception e) {
            AgentLog.info("could not remove the weaver's compiler directive: " + e);
        }
    }
}
