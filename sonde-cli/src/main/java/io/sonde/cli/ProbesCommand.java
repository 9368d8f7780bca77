package io.sonde.cli;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde probes --pid PID list [PATTERN] | enable PATTERN | disable PATTERN | status}:
 * lists and switches the method probes of a JVM running the Sonde agent on this machine, with no
 * restart. Talks to the agent's MBean {@code io.sonde:type=Probes} through the JVM's local JMX
 * connector, which the attach API starts on demand.
 */
@Command(
        name = "probes",
        mixinStandardHelpOptions = true,
        description = {
            "Lists or switches the method probes of a running JVM with the Sonde agent (same machine, same user).",
            "PATTERN: wildcards over probe names <class>.<method>, e.g. 'com.acme.*.get*' (* any run of characters, ? one)."
        })
public final class ProbesCommand implements Callable<Integer> {

    @Option(names = "--pid", required = true, paramLabel = "PID", description = "Process id of the monitored JVM.")
    long pid;

    @Parameters(index = "0", paramLabel = "ACTION", description = "list, enable, disable or status.")
    String action;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PATTERN", description = "Probe name pattern (list: optional, default *).")
    String pattern;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        switch (action) {
            case "list", "enable", "disable", "status" -> { }
            default -> throw new UserError("unknown action '" + action + "': use list, enable, disable or status");
        }
        if ((action.equals("enable") || action.equals("disable")) && pattern == null) {
            throw new UserError(action + " needs a PATTERN, e.g. 'com.acme.*'");
        }
        try (AgentConnection agent = AgentConnection.open(pid)) {
            switch (action) {
                case "list" -> {
                    String[] lines = (String[]) agent.invoke("listMatching", pattern == null ? "*" : pattern);
                    for (String line : lines) {
                        out.println(line);
                    }
                    if (lines.length == 0) {
                        out.println("(no probe matches " + (pattern == null ? "*" : pattern) + ")");
                    }
                }
                case "enable", "disable" -> {
                    int n = (Integer) agent.invoke(action, pattern);
                    out.println(action + "d " + n + " probe(s) matching " + pattern
                            + " (classes loaded later follow the same switch)");
                }
                default -> agent.printStatus(out);
            }
        }
        out.flush();
        return 0;
    }

    /**
     * A JMX connection to the Sonde agent in another JVM on this machine. Every failure becomes a
     * {@link UserError} naming the process and the cause.
     */
    static final class AgentConnection implements AutoCloseable {
        static final String OBJECT_NAME = "io.sonde:type=Probes";

        private final long pid;
        private final JMXConnector connector;
        private final MBeanServerConnection server;
        private final ObjectName name;

        private AgentConnection(long pid, JMXConnector connector) throws IOException {
            this.pid = pid;
            this.connector = connector;
            this.server = connector.getMBeanServerConnection();
            try {
                this.name = new ObjectName(OBJECT_NAME);
            } catch (javax.management.MalformedObjectNameException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Attaches to the JVM, starts its local JMX connector if needed and connects. */
        static AgentConnection open(long pid) {
            String url;
            VirtualMachine vm = attach(pid);
            try {
                url = vm.startLocalManagementAgent();
            } catch (IOException e) {
                throw new UserError("cannot start the JMX connector in process " + pid + ": " + e.getMessage());
            } finally {
                detach(vm);
            }
            try {
                return new AgentConnection(pid, JMXConnectorFactory.connect(new JMXServiceURL(url)));
            } catch (IOException e) {
                throw new UserError("cannot connect to the JMX connector of process " + pid + ": " + e.getMessage());
            }
        }

        /** Attaches with the attach API (same machine, same user). */
        static VirtualMachine attach(long pid) {
            if (pid == ProcessHandle.current().pid()) {
                throw new UserError("--pid " + pid + " is this sonde process itself");
            }
            if (ProcessHandle.of(pid).isEmpty()) {
                throw new UserError("no process with pid " + pid);
            }
            try {
                return VirtualMachine.attach(Long.toString(pid));
            } catch (AttachNotSupportedException | IOException e) {
                throw new UserError("cannot attach to process " + pid + " (is it a JVM of the same user?): "
                        + e.getMessage());
            }
        }

        static void detach(VirtualMachine vm) {
            try {
                vm.detach();
            } catch (IOException e) {
                // the target is gone or closed the connection: nothing to clean up
            }
        }

        /** Invokes an operation of the agent's MBean that takes one String argument. */
        Object invoke(String operation, String argument) {
            try {
                return server.invoke(name, operation, new Object[] {argument}, new String[] {String.class.getName()});
            } catch (InstanceNotFoundException e) {
                throw noAgent();
            } catch (Exception e) {
                throw new UserError("the agent in process " + pid + " failed on " + operation + ": " + e.getMessage());
            }
        }

        /** Reads an attribute of the agent's MBean. */
        Object attribute(String attribute) {
            try {
                return server.getAttribute(name, attribute);
            } catch (InstanceNotFoundException e) {
                throw noAgent();
            } catch (Exception e) {
                throw new UserError("cannot read " + attribute + " from the agent in process " + pid + ": " + e.getMessage());
            }
        }

        /** True when the agent's MBean is registered. */
        boolean agentPresent() {
            try {
                return server.isRegistered(name);
            } catch (IOException e) {
                throw new UserError("lost the JMX connection to process " + pid + ": " + e.getMessage());
            }
        }

        /** Prints status, counters and configuration errors; returns the number of errors. */
        int printStatus(PrintWriter out) {
            out.println("status: " + attribute("Status"));
            out.println("probes: " + attribute("ProbeCount") + " (" + attribute("EnabledProbeCount") + " on), classes instrumented: "
                    + attribute("InstrumentedClassCount"));
            for (String c : (String[]) attribute("Counters")) {
                out.println(c);
            }
            String[] errors = (String[]) attribute("ConfigErrors");
            for (String e : errors) {
                out.println("error: " + e);
            }
            return errors.length;
        }

        private UserError noAgent() {
            return new UserError("process " + pid + " runs no Sonde agent (start it with -javaagent:sonde-agent.jar or 'sonde attach')");
        }

        @Override
        public void close() {
            try {
                connector.close();
            } catch (IOException e) {
                // already closed by the other side
            }
        }
    }
}
