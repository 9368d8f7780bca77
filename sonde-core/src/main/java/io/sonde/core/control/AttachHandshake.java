package io.sonde.core.control;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.BufferedReader;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@link VirtualMachine#attach(String)} without its first sleep. When a HotSpot JVM's attach
 * listener is not running yet, the JDK's attach (Linux) creates the file {@code .attach_pid<pid>},
 * sends SIGQUIT and then sleeps 100 ms, 200 ms, ... before it looks for the listener's socket
 * {@code /tmp/.java_pid<pid>}, although the target creates it within milliseconds: every first
 * attach to a JVM paid at least 100 ms of pure sleep. This class does the same handshake but polls
 * for the socket every millisecond; the JDK's attach then finds the socket and connects at once.
 *
 * <p>The fast path is taken only where it is known to be safe: Linux with {@code /proc}, a target
 * of this user in this process's pid namespace that catches SIGQUIT (a JVM started with
 * {@code -Xrs} would die of it). In every other case, and when the socket does not appear in time,
 * the plain JDK attach runs, which has its own handshake; the reason is logged at DEBUG level
 * ({@link System.Logger}, silent by default).
 *
 * <p>Neither handshake is started on a process that is not a JVM: the JDK's attach sends SIGQUIT
 * to any process that catches it (a shell, an init process) and then waits 10 s for a socket that
 * never comes. Where {@code /proc/<pid>/maps} is readable and maps no {@code libjvm.so},
 * {@link #attach} refuses at once and sends nothing.
 */
public final class AttachHandshake {

    /** What {@link #startListener} did. */
    public enum Outcome {
        /** The socket file existed already: the listener was running. */
        ALREADY_LISTENING,
        /** The handshake started the listener: its socket file exists now. */
        STARTED,
        /** The fast path did not apply or did not work; the JDK's own handshake is left to run. */
        NOT_DONE
    }

    /** How long to wait for the listener's socket after SIGQUIT (the JDK waits up to 10 s, too). */
    static final long LISTENER_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** SIGQUIT: the signal that makes HotSpot look for the attach file. */
    private static final int SIGQUIT = 3;

    private static final Path PROC = Path.of("/proc");

    private static final System.Logger LOG = System.getLogger(AttachHandshake.class.getName());

    private AttachHandshake() {}

    /**
     * Attaches to process {@code pid}: starts its attach listener quickly when it is not running
     * yet (see the class comment), then calls {@link VirtualMachine#attach(String)}.
     *
     * @throws AttachNotSupportedException as {@link VirtualMachine#attach(String)}
     * @throws IOException as {@link VirtualMachine#attach(String)}
     */
    public static VirtualMachine attach(long pid) throws AttachNotSupportedException, IOException {
        String notJvm = notAJvm(pid);
        if (notJvm != null) {
            throw new AttachNotSupportedException(notJvm);
        }
        startListener(pid, LISTENER_TIMEOUT_NANOS);
        return VirtualMachine.attach(Long.toString(pid));
    }

    /**
     * Makes sure the attach listener of JVM {@code pid} runs, waiting at most {@code timeoutNanos}
     * for its socket; never throws (a failure is {@link Outcome#NOT_DONE}, logged at DEBUG).
     */
    public static Outcome startListener(long pid, long timeoutNanos) {
        try {
            String why = notApplicable(pid);
            if (why != null) {
                return notDone(pid, why);
            }
            Path socket = PROC.resolve(Long.toString(pid)).resolve("root/tmp/.java_pid" + pid);
            if (Files.exists(socket)) {
                return Outcome.ALREADY_LISTENING;
            }
            Path trigger = createAttachFile(pid);
            if (trigger == null) {
                return notDone(pid, "cannot create the attach file in its working directory or /tmp, or it "
                        + "exists already (another attach under way)");
            }
            try {
                if (!sendQuit(pid)) {
                    return notDone(pid, "kill -QUIT failed");
                }
                long deadline = System.nanoTime() + timeoutNanos;
                while (!Files.exists(socket)) {
                    if (System.nanoTime() - deadline > 0) {
                        return notDone(pid, "no attach socket " + socket + " after "
                                + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
                    }
                    Thread.sleep(1);
                }
                return Outcome.STARTED;
            } finally {
                Files.deleteIfExists(trigger);
            }
        } catch (IOException | RuntimeException e) {
            return notDone(pid, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return notDone(pid, "interrupted");
        }
    }

    /**
     * Why process {@code pid} is surely not a HotSpot JVM (no {@code libjvm.so} among its mapped
     * files), or null when it is one or this cannot be told (not Linux, maps not readable).
     */
    static String notAJvm(long pid) {
        if (!linux()) {
            return null;
        }
        Path maps = PROC.resolve(Long.toString(pid)).resolve("maps");
        // a plain loop, no stream and lambda: in a fresh CLI JVM their first use is a cost of its own
        try (BufferedReader lines = Files.newBufferedReader(maps)) {
            for (String l = lines.readLine(); l != null; l = lines.readLine()) {
                // "/libjvm.so (deleted)" when the JDK was replaced under the running JVM: still one
                if (l.contains("/libjvm.so")) {
                    return null;
                }
            }
        } catch (IOException | SecurityException e) {
            return null; // cannot tell: the JDK's attach decides
        }
        return "process " + pid + " is not a Java VM (no libjvm.so in " + maps + "); no signal was sent to it";
    }

    private static boolean linux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    /** Why the fast path must not be tried on {@code pid}, or null when it may. */
    private static String notApplicable(long pid) throws IOException {
        if (!linux()) {
            return "not Linux";
        }
        Path status = PROC.resolve(Long.toString(pid)).resolve("status");
        if (!Files.isReadable(status)) {
            return "no readable " + status;
        }
        List<String> lines = Files.readAllLines(status);
        String uid = field(lines, "Uid");
        String nsPid = field(lines, "NSpid");
        String caught = field(lines, "SigCgt");
        if (uid == null || caught == null) {
            return "no Uid or SigCgt in " + status;
        }
        // "real effective saved fs": HotSpot accepts an attach file owned by its effective uid, and
        // the file we create is owned by ours
        String targetUid = uid.split("\\s+")[1];
        Object ownUid = Files.getAttribute(PROC.resolve("self"), "unix:uid");
        if (!targetUid.equals(String.valueOf(ownUid))) {
            return "another user (uid " + targetUid + ")";
        }
        if (nsPid != null && !nsPid.equals(Long.toString(pid))) {
            return "another pid namespace (NSpid " + nsPid + ")";
        }
        if ((Long.parseUnsignedLong(caught, 16) & (1L << (SIGQUIT - 1))) == 0) {
            return "does not catch SIGQUIT (-Xrs, or not a JVM)";
        }
        return notAJvm(pid);
    }

    /** The value of field {@code name} of a /proc status file, or null. */
    private static String field(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return null;
    }

    /**
     * Creates {@code .attach_pid<pid>} where HotSpot looks for it: the target's working directory,
     * else /tmp (as the JDK does); null when neither works or the file exists (another attach
     * under way, whose file is not ours to delete).
     */
    private static Path createAttachFile(long pid) {
        String name = ".attach_pid" + pid;
        for (Path dir : new Path[] {PROC.resolve(Long.toString(pid)).resolve("cwd"), Path.of("/tmp")}) {
            try {
                return Files.createFile(dir.resolve(name));
            } catch (FileAlreadyExistsException e) {
                return null;
            } catch (IOException | SecurityException e) {
                // not writable: the next place
            }
        }
        return null;
    }

    /**
     * Sends SIGQUIT: with the JDK's own native call where this code may call it (the sonde jar's
     * manifest opens {@code jdk.attach}'s {@code sun.tools.attach} to it), else with kill(1), a
     * process start that cost a fresh CLI JVM about 10 ms more.
     */
    private static boolean sendQuit(long pid) throws IOException, InterruptedException {
        Method sendQuitTo = NativeQuit.METHOD;
        if (sendQuitTo != null) {
            try {
                sendQuitTo.invoke(null, (int) pid);
                return true;
            } catch (InvocationTargetException e) {
                return false; // kill(2) failed: the process is gone, or not ours
            } catch (IllegalAccessException e) {
                // as if not opened: kill(1) below
            }
        }
        Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(pid))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS)) {
            kill.destroyForcibly();
            return false;
        }
        return kill.exitValue() == 0;
    }

    /** True when SIGQUIT goes with the JDK's native call, false with kill(1). */
    static boolean quitsNatively() {
        return NativeQuit.METHOD != null;
    }

    /** The JDK's {@code VirtualMachineImpl.sendQuitTo(int)} (Linux), looked up once; null where it cannot be called. */
    private static final class NativeQuit {
        static final Method METHOD = lookUp();

        private static Method lookUp() {
            try {
                Class<?> impl = Class.forName("sun.tools.attach.VirtualMachineImpl");
                if (!impl.getModule().isOpen("sun.tools.attach", AttachHandshake.class.getModule())) {
                    return null;
                }
                Method m = impl.getDeclaredMethod("sendQuitTo", int.class);
                m.setAccessible(true);
                return m;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
        }
    }

    private static Outcome notDone(long pid, String why) {
        LOG.log(Level.DEBUG, () -> "fast attach handshake not done for process " + pid + ": " + why
                + "; the JDK's attach does its own");
        return Outcome.NOT_DONE;
    }
}
