package io.sonde.collector.receive;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A listener recording every connection event as a line, with a way to wait for lines. */
final class Events implements ReceiverListener {
    final List<String> lines = new CopyOnWriteArrayList<>();
    /** The summary of each ended connection, by peer. */
    final Map<String, StreamSummary> summaries = new ConcurrentHashMap<>();

    @Override
    public void opened(String peer) {
        add("opened " + peer);
    }

    @Override
    public void closed(String peer, StreamSummary s) {
        summaries.put(peer, s); // before the line, which is what tests wait for
        add("closed " + peer + " agent " + s.agentId() + " frames " + s.frames() + " bytes " + s.bytes());
    }

    @Override
    public void failed(String peer, long offset, String problem, StreamSummary s) {
        summaries.put(peer, s);
        add("failed " + peer + " offset " + offset + ": " + problem + " [frames " + s.frames() + "]");
    }

    @Override
    public void notice(String peer, String message) {
        add("notice " + peer + ": " + message);
    }

    @Override
    public void refused(String peer, String reason) {
        add("refused " + peer + ": " + reason);
    }

    private synchronized void add(String line) {
        lines.add(line);
        notifyAll();
    }

    /** Waits (bounded) until a line starting with one of the prefixes exists, and returns it. */
    synchronized String await(String... prefixes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            for (String l : lines) {
                for (String prefix : prefixes) {
                    if (l.startsWith(prefix)) {
                        return l;
                    }
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                List<String> last = lines.subList(Math.max(0, lines.size() - 20), lines.size());
                throw new AssertionError("no event starting with " + java.util.Arrays.toString(prefixes) + " within 20 s; last events: " + last);
            }
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }

    /** Waits until n lines start with prefix. */
    synchronized void awaitCount(String prefix, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (lines.stream().filter(l -> l.startsWith(prefix)).count() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(n + " events starting with '" + prefix + "' expected within 20 s; events: " + lines);
            }
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }
}
