package io.sonde.analysis;

import io.sonde.analysis.input.RecordHandler;

/**
 * The hand-built trace most tests share, times in µs (×1000 ns), on thread 7 "worker-1":
 *
 * <pre>
 * trace 0xA1                  wall incl  excl   cpu incl  excl
 * Shop.order    0 .. 1500          1500   700       1000   400
 *   Shop.price  100 .. 600          500   300        350   230
 *     Db.query  150 .. 350          200   200        120   120
 *   Db.query    700 .. 1000         300   300        250   250
 * </pre>
 *
 * CPU times: order enters at 0, price at 50, query at 80 / exits 200, price exits 400, query 450 /
 * 700, order exits 1000.
 */
public final class Golden {
    public static final long US = 1000;
    public static final long TID = 7;

    private Golden() {}

    public static ScriptedSource orderTrace(ScriptedSource s, long base) {
        return s.trace(TID, 0xA1)
                .enter(TID, 1, base, 0)
                .enter(TID, 2, base + 100 * US, 50 * US)
                .enter(TID, 3, base + 150 * US, 80 * US)
                .exit(TID, 3, base + 350 * US, 200 * US)
                .exit(TID, 2, base + 600 * US, 400 * US)
                .enter(TID, 3, base + 700 * US, 450 * US)
                .exit(TID, 3, base + 1000 * US, 700 * US)
                .exit(TID, 1, base + 1500 * US, 1000 * US);
    }

    public static ScriptedSource defs() {
        return new ScriptedSource()
                .probe(1, "Shop.order")
                .probe(2, "Shop.price")
                .probe(3, "Db.query")
                .thread(TID, "worker-1");
    }

    /** A request handed to a pool thread (with its hand-off time) and an event: one tree across threads. */
    public static ScriptedSource handedOff() {
        return new ScriptedSource().probe(1, "Api.handle").probe(2, "Shop.reserve").probe(3, "Task.run")
                .thread(1, "main").thread(2, "pool-1").eventType(7, "order")
                .trace(1, 0x11).enter(1, 1, 1_000).enter(1, 2, 2_000)
                .childTrace(2, 0x21, 0x11, 1, 2_500) // handed off by Shop.reserve (order 1) at 2.5 us
                .enter(2, 3, 6_000)
                .event(1, 7, 2_800, "items=3")
                .exit(1, 2, 3_000)
                .exit(2, 3, 9_000) // the task outlives the execution that handed it off
                .exit(1, 1, 10_000)
                // a piece whose parent is not in the log
                .childTrace(2, 0x22, 0x99, 0, RecordHandler.NO_HANDOFF).enter(2, 3, 20_000).exit(2, 3, 21_000);
    }
}
