package io.sonde.core.control;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Properties;

/**
 * A JVM on this machine reached through the attach API ({@code jdk.attach}; same user; the first
 * attach without the JDK's sleep, see {@link AttachHandshake}): loads agents and reads system
 * properties. Every failure is a {@link ProbeControlException} naming the
 * process. Close to detach.
 */
public final class LocalJvm implements AutoCloseable {

    private final long pid;
    private final VirtualMachine vm;

    private LocalJvm(long pid, VirtualMachine vm) {
        this.pid = pid;
        this.vm = vm;
    }

    /**
     * Attaches to process {@code pid}.
     *
     * @throws ProbeControlException NO_PROCESS for no such process or this process itself,
     *     ATTACH when the attach API fails (not a JVM, another user, attach listener not up yet)
     */
    public static LocalJvm attach(long pid) {
        if (pid == ProcessHandle.current().pid()) {
            throw new ProbeControlException(ProbeControlException.Reason.NO_PROCESS,
                    "process " + pid + " is this JVM itself");
        }
        if (ProcessHandle.of(pid).isEmpty()) {
            throw new ProbeControlException(ProbeControlException.Reason.NO_PROCESS, "no process with pid " + pid);
        }
        try {
            return new LocalJvm(pid, AttachHandshake.attach(pid));
        } catch (AttachNotSupportedException | IOException e) {
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "cannot attach to process " + pid + " (is it a JVM of the same user?): " + e.getMessage(), e);
        }
    }

    /** The process id. */
    public long pid() {
        return pid;
    }

    /**
     * Loads a Java agent jar ({@code Agent-Class}) with the given options string and waits for
     * its {@code agentmain} to return.
     */
    public void loadAgent(Path jar, String options) {
        try {
            vm.loadAgent(jar.toString(), options);
        } catch (AgentLoadException | AgentInitializationException e) {
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "process " + pid + " could not load the agent " + jar + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "lost the attach connection to process " + pid + ": " + e.getMessage(), e);
        }
    }

    /** The target's system properties as they are now. */
    public Properties systemProperties() {
        try {
            return vm.getSystemProperties();
        } catch (IOException e) {
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "lost the attach connection to process " + pid + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs a diagnostic command in the target through this connection, as {@code jcmd} does
     * (HotSpot's attach API: {@code sun.tools.attach.HotSpotVirtualMachine.executeJCmd}, which
     * this code can call only where {@code jdk.attach} exports that package to it: the sonde jar's
     * manifest does, {@code Add-Exports}); returns its output, or null where that is not possible
     * (package not exported, not HotSpot's attach API).
     *
     * @throws ProbeControlException ATTACH when the command could not be sent or failed in the target
     */
    public String diagnosticCommand(String command) {
        Method executeJCmd = JCmd.METHOD;
        if (executeJCmd == null || !executeJCmd.getDeclaringClass().isInstance(vm)) {
            return null;
        }
        try (InputStream in = (InputStream) executeJCmd.invoke(vm, command)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IllegalAccessException e) {
            return null;
        } catch (InvocationTargetException | IOException e) {
            Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "process " + pid + " did not run '" + command + "': " + cause, cause);
        }
    }

    /**
     * Adds {@link AgentState#WEAVER_C2_DIRECTIVE} in the target ({@code Compiler.directives_add},
     * through {@link #diagnosticCommand}), so that the weaving of an attach starts with it in
     * place; true when added, false (nothing changed, the agent then adds it itself) when it cannot
     * be: no way to run the command, a JVM without the command, a directive file the target cannot
     * read. The command reads the directive from a file: written to the target's temporary
     * directory (same user, only the owner may read it; this machine's when that is not
     * writable), read at once and deleted.
     *
     * @param target the target's system properties (its {@code java.io.tmpdir})
     */
    public boolean addWeaverDirective(Properties target) {
        if (JCmd.METHOD == null) {
            return false; // not even a file to write
        }
        Path file = null;
        try {
            file = writeDirectiveFile(target.getProperty("java.io.tmpdir"));
            String answer = diagnosticCommand("Compiler.directives_add " + file);
            return answer != null && answer.contains("1 compiler directives added");
        } catch (IOException | RuntimeException e) { // also a file system without POSIX permissions
            return false;
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // a file of a few bytes left in a temporary directory
                }
            }
        }
    }

    /**
     * Removes the directive {@link #addWeaverDirective} added ({@code Compiler.directives_remove}
     * pops the latest directive: one someone added with {@code jcmd} since then would go instead).
     * A target that is gone needs nothing removed; false when it could not be removed.
     */
    public boolean removeWeaverDirective() {
        try {
            String answer = diagnosticCommand("Compiler.directives_remove");
            return answer != null;
        } catch (ProbeControlException e) {
            return false;
        }
    }

    /**
     * Writes the directive to a new file that only this user can read, in the target's temporary
     * directory (else this JVM's). Created exclusively ({@code CREATE_NEW}: never an existing file
     * or a link someone put there; then no directive, the agent adds it), and named by this
     * process and the clock: {@code Files.createTempFile} would draw the name from a
     * {@code SecureRandom}, whose first use cost a fresh CLI JVM 10-15 ms.
     */
    private static Path writeDirectiveFile(String targetTmp) throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        if (targetTmp != null && !targetTmp.isBlank()) {
            Path t = Path.of(targetTmp);
            if (Files.isDirectory(t) && Files.isWritable(t)) {
                dir = t;
            }
        }
        Path file = dir.resolve("sonde-weaver-directive-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".json");
        try (SeekableByteChannel out = Files.newByteChannel(file,
                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(EnumSet.of(
                        PosixFilePermission.OWNER_READ,
                        PosixFilePermission.OWNER_WRITE)))) {
            out.write(ByteBuffer.wrap(AgentState.WEAVER_C2_DIRECTIVE.getBytes(StandardCharsets.UTF_8)));
        }
        return file;
    }

    /** HotSpot's {@code executeJCmd}, looked up once; null where it cannot be called. */
    private static final class JCmd {
        static final Method METHOD = lookUp();

        private static Method lookUp() {
            try {
                Class<?> hotspot = Class.forName("sun.tools.attach.HotSpotVirtualMachine");
                if (!LocalJvm.class.getModule().canRead(hotspot.getModule())
                        || !hotspot.getModule().isExported("sun.tools.attach", LocalJvm.class.getModule())) {
                    return null;
                }
                return hotspot.getMethod("executeJCmd", String.class);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
        }
    }

    /** Detaches; a target that is gone or closed the connection needs no clean-up. */
    @Override
    public void close() {
        try {
            vm.detach();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
