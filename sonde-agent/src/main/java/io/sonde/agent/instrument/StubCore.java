package io.sonde.agent.instrument;

/** TEMPORARY stand-in for the core until it lands: prints events. */
final class StubCore {
    final boolean[] on = new boolean[100000];
    final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);
    final ThreadLocal<String> child = new ThreadLocal<>();

    boolean enter(int id) {
        if (!on[id]) return false;
        int d = depth.get()[0]++;
        System.err.println("ENTER " + id + " d=" + d + " t=" + Thread.currentThread().getName() + (d == 0 && child.get() != null ? " parent=" + child.get() : ""));
        return true;
    }

    void exit(int id, boolean entered) {
        if (!entered) return;
        depth.get()[0]--;
        System.err.println("EXIT " + id);
    }

    void exitExceptionally(int id, boolean entered, Throwable t) {
        if (!entered) return;
        depth.get()[0]--;
        System.err.println("EXITX " + id + " " + t.getClass().getName());
    }

    Object captureParent() {
        return depth.get()[0] > 0 ? Thread.currentThread().getName() : null;
    }

    Object beginChild(Object parent) {
        String prev = child.get();
        child.set((String) parent);
        return prev;
    }

    void endChild(Object previous) {
        child.set((String) previous);
    }
}
