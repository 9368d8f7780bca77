package io.sonde.agent.instrument;

import java.util.ArrayList;
import java.util.List;

/** A registry like the core's: ids from 1, new probes on. */
public final class FakeProbeRegistry implements ProbeCatalog.Registry {
    public final List<String> names = new ArrayList<>();
    public final List<Boolean> on = new ArrayList<>();

    @Override
    public int register(String name, String signature) {
        names.add(name + signature);
        on.add(true);
        return names.size();
    }

    @Override
    public void setEnabled(int id, boolean enabled) {
        on.set(id - 1, enabled);
    }

    @Override
    public boolean isEnabled(int id) {
        return on.get(id - 1);
    }
}
