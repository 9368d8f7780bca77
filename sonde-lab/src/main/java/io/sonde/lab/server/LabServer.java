package io.sonde.lab.server;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP request/reply server on 127.0.0.1 with one of four threading strategies
 * ({@link ServerStrategy}), built to be measured and traced: every request passes through the
 * stage methods {@code receive}, {@code dispatch}, {@code servant} and {@code reply} of this
 * class, plus {@code acquireOrbLock} (threaded), {@code startDispatcher} (thread-per-request) or
 * {@code enqueue} (thread-pool). Run it under the Sonde agent with
 * {@code include=io.sonde.lab.server.LabServer.*} and {@code cpu.time=on} and the trace gives each
 * stage's CPU demand per request ({@code io.sonde.lab.model.StageDemands}).
 *
 * <p>Threads: {@code lab-acceptor}; one {@code lab-receiver-N} per connection (all strategies);
 * {@code lab-dispatcher-N} per request (thread-per-request) or {@code lab-pool-N} (thread-pool).
 */
public final class LabServer implements AutoCloseable {
    private final ServerStrategy strategy;
    private final int poolSize;
    private final ServerStats stats = new ServerStats();
    /** The threaded strategy's server-wide lock (the ORB mutex of thesis 4.3.2), fair like it. */
    private final ReentrantLock orbLock = new ReentrantLock(true);
    private final LinkedBlockingQueue<Request> poolQueue = new LinkedBlockingQueue<>();
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final AtomicLong threadNumber = new AtomicLong();
    private volatile boolean closed;
    private ServerSocket listener;

    /** One request as received: its connection, id and servant work. */
    static final class Request {
        final Connection connection;
        final long id;
        final int kind;
        final long demandNanos;

        Request(Connection connection, long id, int kind, long demandNanos) {
            this.connection = connection;
            this.id = id;
            this.kind = kind;
            this.demandNanos = demandNanos;
        }
    }

    /** A client connection: its socket's streams; writes are serialised per connection. */
    static final class Connection {
        final DataInputStream in;
        final DataOutputStream out;

        Connection(Socket s) throws IOException {
            in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 4096));
            out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 256));
        }
    }

    /**
     * A server with the given strategy.
     *
     * @param poolSize dispatcher threads of the thread pool (ignored by the other strategies)
     * @throws IllegalArgumentException when the pool size is below 1 for thread-pool
     */
    public LabServer(ServerStrategy strategy, int poolSize) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        if (strategy == ServerStrategy.THREAD_POOL && poolSize < 1) {
            throw new IllegalArgumentException("pool size must be >= 1 for thread-pool, got " + poolSize);
        }
        this.poolSize = poolSize;
    }

    /**
     * Binds 127.0.0.1:{@code port} (0: any free port), starts the acceptor (and the pool) and
     * returns the port.
     */
    public synchronized int start(int port) throws IOException {
        if (listener != null) {
            throw new IllegalStateException("already started");
        }
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
        if (strategy == ServerStrategy.THREAD_POOL) {
            for (int i = 0; i < poolSize; i++) {
                stats.poolThreadStarted();
                startThread("lab-pool-" + i, this::poolLoop);
            }
        }
        startThread("lab-acceptor", this::acceptLoop);
        return listener.getLocalPort();
    }

    /** What the server did so far. */
    public ServerStats stats() {
        return stats;
    }

    /** The strategy. */
    public ServerStrategy strategy() {
        return strategy;
    }

    private Thread startThread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
        return t;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                connections.add(s);
                Connection c = new Connection(s);
                stats.receiverStarted();
                startThread("lab-receiver-" + threadNumber.incrementAndGet(), () -> receiverLoop(s, c));
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("lab server: accept failed: " + e.getMessage());
                }
                return;
            }
        }
    }

    /** The receiver thread of one connection: receives each request and hands it on by strategy. */
    private void receiverLoop(Socket s, Connection c) {
        try {
            for (Request r = receive(c); r != null; r = receive(c)) {
                switch (strategy) {
                    case THREAD_PER_CLIENT -> process(r);
                    case THREADED -> processUnderOrbLock(r);
                    case THREAD_PER_REQUEST -> startDispatcher(r);
                    case THREAD_POOL -> enqueue(r);
                }
            }
        } catch (IOException e) {
            if (!closed && !(e instanceof SocketException)) {
                System.err.println("lab server: connection failed: " + e.getMessage());
            }
        } finally {
            connections.remove(s);
            threads.remove(Thread.currentThread());
            closeQuietly(s);
        }
    }

    /** Stage: reads the next request from the connection; null when the client closed it. */
    Request receive(Connection c) throws IOException {
        long id;
        try {
            id = c.in.readLong();
        } catch (EOFException e) {
            return null;
        }
        int kind = c.in.readInt();
        long demand = c.in.readLong();
        if ((kind != Wire.KIND_CPU && kind != Wire.KIND_DELAY) || demand < 0) {
            throw new IOException("bad request " + id + ": kind " + kind + ", demand " + demand + " ns");
        }
        return new Request(c, id, kind, demand);
    }

    /** Dispatch, servant and reply in the current thread. */
    private void process(Request r) throws IOException {
        dispatch(r);
        servant(r);
        reply(r);
    }

    private void processUnderOrbLock(Request r) throws IOException {
        acquireOrbLock();
        try {
            dispatch(r);
            servant(r);
        } finally {
            orbLock.unlock();
        }
        reply(r);
    }

    /** Stage (threaded): waits for the server-wide lock; its wall time is the lock contention. */
    void acquireOrbLock() {
        orbLock.lock();
    }

    /** Stage (thread-per-request): creates and starts the request's own dispatcher thread. */
    void startDispatcher(Request r) {
        stats.dispatcherStarted();
        Thread t = new Thread(() -> {
            try {
                process(r);
            } catch (IOException e) {
                // the client went away; its receiver notices and closes the connection
            } finally {
                threads.remove(Thread.currentThread());
            }
        }, "lab-dispatcher-" + threadNumber.incrementAndGet());
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** Stage (thread-pool): puts the request in the pool's queue and wakes a dispatcher. */
    void enqueue(Request r) {
        poolQueue.add(r);
    }

    private void poolLoop() {
        while (!closed) {
            Request r;
            try {
                r = poolQueue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                process(r);
            } catch (IOException e) {
                // the client went away; its receiver notices and closes the connection
            }
        }
    }

    /**
     * Stage: decodes what to run, as an ORB finds the servant and unmarshals the arguments. Here
     * that is checking the request; the stage exists so a trace can see what dispatching costs.
     */
    void dispatch(Request r) {
        if (r.kind != Wire.KIND_CPU && r.kind != Wire.KIND_DELAY) {
            throw new IllegalStateException("request " + r.id + " has servant kind " + r.kind);
        }
    }

    /** Stage: the servant's work, CPU time or a sleep. */
    void servant(Request r) {
        stats.enterServant();
        try {
            if (r.kind == Wire.KIND_CPU) {
                Servant.spendCpu(r.demandNanos);
            } else {
                Servant.sleep(r.demandNanos);
            }
        } finally {
            stats.exitServant();
        }
    }

    /** Stage: writes the reply (the request id) to the request's connection. */
    void reply(Request r) throws IOException {
        DataOutputStream out = r.connection.out;
        synchronized (out) {
            out.writeLong(r.id);
            out.flush();
        }
    }

    /** Closes the listener and every connection; worker threads end on their own (daemons). */
    @Override
    public void close() {
        closed = true;
        if (listener != null) {
            closeQuietly(listener);
        }
        for (Socket s : connections) {
            closeQuietly(s);
        }
        for (Thread t : threads) {
            if (t.getName().startsWith("lab-pool-")) {
                t.interrupt();
            }
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
