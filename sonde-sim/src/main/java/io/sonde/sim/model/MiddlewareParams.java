package io.sonde.sim.model;

import io.sonde.sim.profile.CalibrationProfile;

/**
 * The chapter-4 parameters of the middleware models, read from a {@link CalibrationProfile}.
 * Service demands are CPU milliseconds at the profile machine's speed; delays are milliseconds.
 * docs/simulator.md ("Calibration profile") explains each value of the default profile.
 */
record MiddlewareParams(
        double bRec,
        double bEnqueue,
        double bPoolReply,
        double bDisp,
        double bUnm,
        double bMar,
        double bReply,
        double receiverPhase2,
        double dispatcherPhase2,
        double bTcParent,
        double bTcChild,
        double bThreadStart,
        double bTk,
        double orbMutexWaiter,
        double socketWake,
        double monitorWake,
        double timerWake,
        double monitorRetry,
        double monitorReacquire,
        double wakePerThread,
        double wakePerThreadMaxThreads,
        boolean wakePerRunnableThread,
        double netRequest,
        double netReply,
        double clientThink,
        double tickMs,
        int baseTicks,
        int sleepExtraTicks,
        double warmupFraction,
        boolean servantWallClock,
        boolean networkExponential,
        boolean replyWaitsForReceiver) {

    /** Profile key: how a servant spends its CPU demand ({@code cpu} or {@code wall}). */
    static final String SERVANT_CPU_CLOCK = "servant_cpu_clock";

    static MiddlewareParams from(CalibrationProfile p) {
        return new MiddlewareParams(
                p.number("b_rec_ms"),
                p.number("b_enqueue_ms"),
                p.number("b_pool_reply_ms"),
                p.number("b_disp_ms"),
                p.number("b_unm_ms"),
                p.number("b_mar_ms"),
                p.number("b_reply_ms"),
                p.number("receiver_phase2_ms"),
                p.number("dispatcher_phase2_ms"),
                p.number("b_tc_parent_ms"),
                p.number("b_tc_child_ms"),
                p.number("b_thread_start_ms"),
                p.number("b_tk_ms"),
                p.number("orb_mutex_waiter_ms"),
                p.number("socket_wakeup_ms"),
                p.number("monitor_wakeup_ms"),
                p.number("timer_wakeup_ms"),
                p.number("monitor_retry_ms"),
                p.number("monitor_reacquire_ms"),
                p.number("wakeup_per_thread_ms"),
                p.number("wakeup_per_thread_max_threads"),
                choice(p, "wakeup_per_thread_scope", "all", "runnable"),
                p.number("network_request_ms"),
                p.number("network_reply_ms"),
                p.number("client_think_ms"),
                p.number("linux24.tick_ms"),
                (int) p.number("linux24.base_slice_ticks"),
                (int) p.number("sleep_extra_ticks"),
                p.number("warmup_fraction"),
                choice(p, SERVANT_CPU_CLOCK, "cpu", "wall"),
                choice(p, "network_delay", "deterministic", "exponential"),
                p.number("reply_waits_for_receiver") != 0);
    }

    /**
     * A two-valued text parameter: false for {@code no}, true for {@code yes}.
     *
     * @throws IllegalArgumentException naming the profile, the key and the allowed values
     */
    private static boolean choice(CalibrationProfile p, String key, String no, String yes) {
        String v = p.text(key, null);
        if (v == null) {
            throw new IllegalArgumentException("profile " + p.name() + ": missing parameter '" + key + "'");
        }
        if (v.equals(no) || v.equals(yes)) {
            return v.equals(yes);
        }
        throw new IllegalArgumentException("profile " + p.name() + ": parameter '" + key + "' must be " + no + " or "
                + yes + ", got '" + v + "'");
    }
}
