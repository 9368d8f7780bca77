package io.sonde.agent.sample;

/** Methods the hook weaver's tests weave hooks into. */
public class HookShapes {

    /** Returns its argument. */
    public String echo(String s) {
        return s;
    }

    /** A long and an int before the hooked argument; a loop and a handler of its own. */
    public long count(long from, int times) {
        long n = from;
        for (int i = 0; i < times; i++) {
            try {
                if (i == 2) {
                    throw new IllegalArgumentException("caught inside");
                }
                n++;
            } catch (IllegalArgumentException e) {
                n += 10;
            }
        }
        if (times < 0) {
            throw new IllegalStateException("negative");
        }
        return n;
    }

    /** A double and a long: the hooked long parameter is in slots 3-4. */
    public double scale(double f, long by) {
        return f * by;
    }
}
