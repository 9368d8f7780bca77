package io.sonde.cli;

import io.sonde.core.control.AgentState;
import io.sonde.core.control.LocalJvm;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The attach of {@code sonde attach --pid P}, started while picocli still builds and parses the
 * command line: the connection to the target, its first system properties and, when no agent runs
 * there yet, the weaver's compiler directive ({@link LocalJvm#addWeaverDirective}), on a thread of
 * its own, so that this work (about 0.07 s in a fresh CLI JVM) overlaps picocli's
 * (docs/benchmarks.md, "`sonde attach` under one second"). {@link AttachCommand} takes the result
 * where it would attach itself, so its errors come at the same point with the same message as
 * ever; a result nobody takes (a usage error, another pid after parsing) is closed.
 */
final class EarlyAttach {

    /**
     * A connection, the target's system properties as read right after attaching, and whether the
     * weaver's compiler directive was added then (only when no agent ran there: the one to load
     * must tell the agent so, and remove it when done).
     */
    record Attached(LocalJvm jvm, Properties properties, boolean directiveAdded) {}

    /** The one started for the command line being run; null when none. */
    private static volatile EarlyAttach current;

    private final long pid;
    private final CompletableFuture<Attached> result;
    /**
     * Guards the directive: the attach thread adds it only while the command line may still take
     * this attach, and a command line that ended without it removes it before its JVM exits.
     */
    private final Object directiveLock = new Object();
    private boolean untaken; // guarded by directiveLock
    private LocalJvm directiveAddedTo; // guarded by directiveLock

    private EarlyAttach(long pid) {
        this.pid = pid;
        this.result = new CompletableFuture<>();
        Thread t = new Thread(this::attach, "sonde-early-attach");
        t.setDaemon(true); // a handshake that hangs never holds the CLI's exit
        t.start();
    }

    private void attach() {
        try {
            result.complete(connect(pid, this));
        } catch (RuntimeException | Error e) {
            result.completeExceptionally(e);
        }
    }

    /** Attaches, reads the properties and adds the directive (for {@code early}: while it may be taken). */
    private static Attached connect(long pid, EarlyAttach early) {
        LocalJvm jvm = LocalJvm.attach(pid);
        try {
            Properties properties = jvm.systemProperties();
            // an agent loaded after this read is refused or seen by the command, which then removes it
            boolean noAgent = properties.getProperty(AgentState.OPTIONS_PROPERTY) == null;
            if (early == null) {
                return new Attached(jvm, properties, noAgent && jvm.addWeaverDirective(properties));
            }
            synchronized (early.directiveLock) {
                boolean directive = noAgent && !early.untaken && jvm.addWeaverDirective(properties);
                early.directiveAddedTo = directive ? jvm : null;
                return new Attached(jvm, properties, directive);
            }
        } catch (RuntimeException | Error e) {
            jvm.close();
            throw e;
        }
    }

    /**
     * Starts the attach when {@code args} are {@code attach ... --pid P ...} (not asking for help
     * or the version, and not this process); otherwise does nothing. Close the result (null when
     * nothing started) when the command line has run.
     */
    static EarlyAttach startFor(String... args) {
        Long pid = pidOf(args);
        if (pid == null || pid == ProcessHandle.current().pid()) {
            return null;
        }
        EarlyAttach early = new EarlyAttach(pid);
        current = early;
        return early;
    }

    /** The pid of an {@code attach} command line, or null (not one, no pid, help, a pid that is no number). */
    static Long pidOf(String... args) {
        if (args.length == 0 || !args[0].equals("attach")) {
            return null;
        }
        String pid = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) {
                break; // picocli's end of options: what follows is positional
            }
            if (a.equals("-h") || a.equals("--help") || a.equals("-V") || a.equals("--version")) {
                return null;
            }
            if (a.equals("--pid") && i + 1 < args.length) {
                pid = args[++i];
            } else if (a.startsWith("--pid=")) {
                pid = a.substring("--pid=".length());
            }
        }
        try {
            return pid == null ? null : Long.valueOf(pid.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The connection to {@code pid} (with its system properties as read then) from the attach
     * started for this command line, or a new one when none was started for that pid; fails as
     * {@link LocalJvm#attach} does.
     */
    static Attached attach(long pid) {
        EarlyAttach early = current;
        if (early != null && early.pid == pid) {
            current = null; // taken: not closed with the command line
            try {
                return early.result.join();
            } catch (CompletionException e) {
                // as LocalJvm.attach threw it (a ProbeControlException naming the process)
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw e;
            }
        }
        return connect(pid, null);
    }

    /**
     * Ends this attach if nobody took it: a directive it added is removed now (before this JVM
     * exits), none is added from now on, and its connection is closed when (and if) it is made.
     */
    void closeIfUntaken() {
        if (current != this) {
            return;
        }
        current = null;
        synchronized (directiveLock) {
            untaken = true;
            if (directiveAddedTo != null) {
                directiveAddedTo.removeWeaverDirective();
            }
        }
        result.thenAccept(a -> a.jvm().close());
    }
}
