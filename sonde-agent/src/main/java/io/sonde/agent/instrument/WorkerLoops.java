package io.sonde.agent.instrument;

import java.util.Map;
import java.util.Set;

/**
 * The built-in list of worker-loop methods: the run loops of thread pools, event loops, acceptors
 * and selectors outside the JDK, which run for as long as their thread lives and run one task or
 * request after another. Such a method must never be a trace root: a probe on it would open one
 * trace spanning the whole run, with every request nested in it. So the agent never puts a probe
 * on them, even when an include pattern selects them; each task they run starts its own trace
 * (linked to whoever handed it over when the hand-off is known), and their entry clears whatever
 * trace parent the thread inherited from the execution that started it. The JDK's own loops
 * ({@code ThreadPoolExecutor.runWorker}, {@code ForkJoinWorkerThread.run}) are handled by the
 * propagation's weaving of the JDK.
 */
public final class WorkerLoops {

    /** Class name to the names of its loop methods. */
    private static final Map<String, Set<String>> LOOPS = Map.ofEntries(
            // Jetty 9-12: the pool's thread body and its job runners (a job may be the selector's
            // produce-and-consume loop, so a probe there would span many requests), reserved
            // threads, acceptors, the selector's producer and the execution strategy
            Map.entry("org.eclipse.jetty.util.thread.QueuedThreadPool$Runner", Set.of("run", "doRunJob")),
            Map.entry("org.eclipse.jetty.util.thread.QueuedThreadPool", Set.of("runJob")),
            Map.entry("org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread", Set.of("run")),
            Map.entry("org.eclipse.jetty.server.AbstractConnector$Acceptor", Set.of("run")),
            Map.entry("org.eclipse.jetty.io.ManagedSelector$SelectorProducer", Set.of("produce")),
            Map.entry("org.eclipse.jetty.util.thread.strategy.AdaptiveExecutionStrategy", Set.of("produce", "run", "tryProduce")),
            // Tomcat: its own copy of ThreadPoolExecutor, the poller and the acceptor
            Map.entry("org.apache.tomcat.util.threads.ThreadPoolExecutor", Set.of("runWorker")),
            Map.entry("org.apache.tomcat.util.net.NioEndpoint$Poller", Set.of("run")),
            Map.entry("org.apache.tomcat.util.net.Acceptor", Set.of("run")),
            // Netty: the event loops and the global executor's runner
            Map.entry("io.netty.channel.nio.NioEventLoop", Set.of("run")),
            Map.entry("io.netty.channel.epoll.EpollEventLoop", Set.of("run")),
            Map.entry("io.netty.channel.kqueue.KQueueEventLoop", Set.of("run")),
            Map.entry("io.netty.util.concurrent.DefaultEventExecutor", Set.of("run")),
            Map.entry("io.netty.util.concurrent.GlobalEventExecutor$TaskRunner", Set.of("run")),
            // Undertow's XNIO worker threads
            Map.entry("org.xnio.nio.WorkerThread", Set.of("run")));

    private WorkerLoops() {}

    /** True when the class has a loop method in the list. */
    public static boolean hasLoops(String className) {
        return LOOPS.containsKey(className);
    }

    /** True when {@code className.methodName} is a worker loop. */
    public static boolean isLoop(String className, String methodName) {
        Set<String> methods = LOOPS.get(className);
        return methods != null && methods.contains(methodName);
    }

    /** Every loop method, as {@code class.method}, for the documentation and tests. */
    public static java.util.List<String> all() {
        return LOOPS.entrySet().stream()
                .flatMap(e -> e.getValue().stream().map(m -> e.getKey() + "." + m))
                .sorted()
                .toList();
    }
}
