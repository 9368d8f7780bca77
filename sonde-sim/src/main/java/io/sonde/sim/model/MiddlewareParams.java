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
        double netRequest,
        double netReply,
        double clientThink,
        double tickMs,
        int baseTicks,
        int sleepExtraTicks,
        double warmupFraction) {

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
                p.number("network_request_ms"),
                p.number("network_reply_ms"),
                p.number("client_think_ms"),
                p.number("linux24.tick_ms"),
                (int) p.number("linux24.base_slice_ticks"),
                (int) p.number("sleep_extra_ticks"),
                p.number("warmup_fraction"));
    }
}
