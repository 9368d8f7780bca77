package io.sonde.cli;

import io.sonde.collector.envelope.DecodedFrame;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.dashboard.rates.RecentRate;
import io.sonde.format.Format;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The collector's per-agent record counts for the dashboard's agents page ({@code sonde collector
 * --http}): a queued handler that decodes each DATA frame and counts, per agent, its data records
 * and the records the agent says it dropped (the counts of its GAP records), each with its rate
 * over the last seconds. Being queued, it may itself drop frames when the collector is overloaded
 * (its handler status says how many), so the counts are then lower than what was archived.
 */
final class AgentRecordCounter implements DataHandler {
    static final String NAME = "dashboard-records";

    /** The counts of one agent. */
    record Counts(RecentRate records, RecentRate dropped) {}

    private final Map<UUID, Counts> agents = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    AgentRecordCounter() {
        this(System::currentTimeMillis);
    }

    AgentRecordCounter(LongSupplier clockMillis) {
        this.clock = clockMillis;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean decodes() {
        return true;
    }

    @Override
    public void open(HandlerConfig config) {}

    @Override
    public void handle(Envelope e) {
        if (!Format.holdsRecords(e.type())) return;
        DecodedFrame d = e.decode();
        long gaps = 0;
        for (int i = 0; i < d.count(); i++) {
            if (d.type(i) == Format.GAP) gaps += d.time(i); // a GAP's "time" is the count of records dropped there
        }
        Counts c = agents.computeIfAbsent(e.agentId(), id -> new Counts(new RecentRate(), new RecentRate()));
        long now = clock.getAsLong();
        c.records().add(now, d.dataRecords());
        c.dropped().add(now, gaps);
    }

    @Override
    public void close() {}

    /** The counts of {@code agent}, null before its first DATA frame. */
    Counts of(UUID agent) {
        return agents.get(agent);
    }
}
