package io.sonde.sim.stats;

/**
 * Quantiles of Student's t distribution, computed from the regularised incomplete beta function
 * (continued fraction) and bisection; accurate to about 1e-10, enough for confidence intervals.
 */
public final class StudentT {
    private StudentT() {}

    /**
     * The {@code p}-quantile of Student's t with {@code df} degrees of freedom, for p in (0, 1).
     * For example {@code quantile(0.975, 9)} = 2.262...
     */
    public static double quantile(double p, double df) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("p must be in (0,1), got " + p);
        }
        if (!(df > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be > 0, got " + df);
        }
        if (p == 0.5) {
            return 0;
        }
        if (p < 0.5) {
            return -quantile(1 - p, df);
        }
        double lo = 0;
        double hi = 1;
        while (cdf(hi, df) < p) {
            hi *= 2;
            if (hi > 1e12) {
                return Double.POSITIVE_INFINITY;
            }
        }
        for (int i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
            double mid = 0.5 * (lo + hi);
            if (cdf(mid, df) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    /** The distribution function of Student's t with {@code df} degrees of freedom. */
    public static double cdf(double t, double df) {
        double x = df / (df + t * t);
        double tail = 0.5 * regularizedBeta(x, df / 2, 0.5);
        return t >= 0 ? 1 - tail : tail;
    }

    /** The regularised incomplete beta function I_x(a, b). */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
        // The continued fraction converges fast for x < (a+1)/(a+b+2); use symmetry otherwise.
        if (x < (a + 1) / (a + b + 2)) {
            return Math.exp(lnFront) * betaFraction(x, a, b) / a;
        }
        return 1 - Math.exp(lnFront) * betaFraction(1 - x, b, a) / b;
    }

    /** Modified Lentz evaluation of the incomplete beta continued fraction. */
    private static double betaFraction(double x, double a, double b) {
        final double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
        double f = d;
        for (int m = 1; m <= 500; m++) {
            int m2 = 2 * m;
            double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 + num * d;
            c = 1 + num / c;
            d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
            c = Math.abs(c) < tiny ? tiny : c;
            f *= d * c;
            num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 + num * d;
            c = 1 + num / c;
            d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
            c = Math.abs(c) < tiny ? tiny : c;
            double delta = d * c;
            f *= delta;
            if (Math.abs(delta - 1) < 1e-15) {
                break;
            }
        }
        return f;
    }

    /** ln Gamma(x) for x > 0 (Lanczos approximation, g = 7, 9 terms). */
    static double logGamma(double x) {
        if (x < 0.5) {
            // Reflection keeps the approximation in its accurate range.
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        final double[] c = {
            0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7
        };
        double z = x - 1;
        double sum = c[0];
        for (int i = 1; i < c.length; i++) {
            sum += c[i] / (z + i);
        }
        double t = z + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
