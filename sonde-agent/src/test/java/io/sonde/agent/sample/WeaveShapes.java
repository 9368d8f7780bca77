package io.sonde.agent.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Method shapes the ASM weaver must keep verifiable and unchanged in behaviour ({@code
 * ProbeWeaverTest}): every return type, wide locals in the last slots, handlers, finally blocks,
 * switches, loops, monitors, lambdas, string concatenation (invokedynamic), checked exceptions and
 * a nested interface with default and static methods. {@link #digest()} calls them all.
 */
public class WeaveShapes {

    private int field = 3;

    /** Mixes the results of every method into one string (the same with and without probes). */
    public static String digest() {
        WeaveShapes s = new WeaveShapes();
        List<Object> out = new ArrayList<>();
        out.add(add(2, 40));
        out.add(wide(1L, 2.5, 3, 4L));
        out.add(s.flag(3) + " " + s.flag(-3));
        out.add(s.letter(1));
        out.add(s.small(7));
        out.add(s.shortOf(9));
        out.add(s.ratio(3));
        out.add(s.array(4).length);
        out.add(s.tryCatchFinally(0) + "/" + s.tryCatchFinally(5));
        out.add(switches(1) + switches(7) + switches(1000) + switches(-5));
        out.add(strings("b") + strings("zz"));
        out.add(s.locked(5));
        out.add(lambdas(6));
        try {
            checked(true);
        } catch (Exception e) {
            out.add("checked " + e.getMessage());
        }
        try {
            thrower(3);
        } catch (IllegalStateException e) {
            out.add("thrown " + e.getMessage());
        }
        out.add(Shape.twice(new Shape() { }, 21));
        out.add(reuse(4));
        s.nothing();
        out.add(s.field);
        return out.toString();
    }

    static int add(int a, int b) {
        return a + b;
    }

    static double wide(long a, double b, int c, long last) {
        long sum = a + c;
        double d = b * 2;
        if (sum > 100) {
            return d;
        }
        long more = last + sum;
        return more + d;
    }

    boolean flag(int x) {
        if (x > 0) {
            return true;
        }
        return false;
    }

    char letter(int i) {
        return (char) ('a' + i + field);
    }

    byte small(int i) {
        return (byte) (i * field);
    }

    short shortOf(int i) {
        return (short) (i << 2);
    }

    float ratio(int i) {
        return i / 2f;
    }

    int[] array(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * i;
        }
        return a;
    }

    int tryCatchFinally(int i) {
        int r = 0;
        try {
            if (i == 0) {
                throw new ArithmeticException("zero");
            }
            r = 10 / i;
            return r;
        } catch (ArithmeticException e) {
            r = -1;
            return r;
        } finally {
            field += r;
        }
    }

    static String switches(int i) {
        switch (i) {
            case 0: return "zero";
            case 1: return "one";
            case 2: return "two";
            case 7: return "seven";
            default:
                break;
        }
        switch (i) {
            case 1000: return "k";
            case -5: return "minus";
            default: return "?";
        }
    }

    static int strings(String s) {
        switch (s) {
            case "a": return 1;
            case "b": return 2;
            default: return ("x" + s + s.length()).length();
        }
    }

    synchronized int locked(int n) {
        int total = 0;
        synchronized (this) {
            for (int i = 0; i < n; i++) {
                total += i;
            }
        }
        return total;
    }

    static int lambdas(int n) {
        IntUnaryOperator twice = x -> x * 2;
        IntUnaryOperator plus = x -> {
            if (x < 0) {
                throw new IllegalArgumentException();
            }
            return x + n;
        };
        return twice.andThen(plus).applyAsInt(n);
    }

    static void checked(boolean fail) throws Exception {
        if (fail) {
            throw new Exception("fail");
        }
    }

    static long thrower(long x) {
        if (x > 2) {
            throw new IllegalStateException("big " + x);
        }
        return x;
    }

    static Object reuse(int n) {
        Object o;
        if (n > 2) {
            long l = n * 3L;
            o = l;
        } else {
            double d = n / 3.0;
            o = d;
        }
        String s = String.valueOf(o);
        return s + n;
    }

    void nothing() {
        field++;
    }

    /** An interface with a default and a static method (bodies in an interface). */
    public interface Shape {
        default int side(int x) {
            return x + 1;
        }

        static int twice(Shape s, int x) {
            return s.side(x) * 2;
        }
    }
}
