package io.sonde.collector.receive;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A listener recording every connection event as a line, with a way to wait for lines. */
final class Events implements ReceiverListener {
    final List<String> lines = new CopyOnWriteArrayList<>();

    @Override
    public void opened(String peer) {
        add("opened " + peer);
    }

    @Override
    public void closed(String peer, UUID agentId, long frames, long bytes, String target) {
        add("closed " + peer + " agent " + agentId + " frames " + frames + " bytes " + bytes);
    }

    @Override
    public void failed(String peer, long offset, String problem, UUID agentId, long frames, String target) {
        add("failed " + peer + " offset " + offset + ": " + problem + " [frames " + frames + "]");
    }

    private synchronized void add(String line) {
        lines.add(line);
        notifyAll();
    }

    /** Waits (bounded) until a line starting with prefix exists, and returns it. */
    synchronized String await(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            for (String l : lines) {
                if (l.startsWith(prefix)) {
                    return l;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no event starting with '" + prefix + "' within 20 s; events: " + lines);
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
