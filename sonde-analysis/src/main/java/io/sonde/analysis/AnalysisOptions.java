package io.sonde.analysis;

import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.demand.DemandCollector;
import io.sonde.analysis.progress.ProgressListener;
import io.sonde.analysis.tree.ExecutionListener;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** What {@link Analyzer} should do; plain settable fields with defaults. */
public final class AnalysisOptions {
    /** Regular expression searched in thread names; null: every thread. */
    public Pattern threadPattern;
    /** Regular expression searched in operation names; null: every operation. */
    public Pattern operationPattern;
    /** Window start, seconds after the log start; null: the log start. */
    public Double fromSeconds;
    /** Window end, seconds after the log start; null: the log end. */
    public Double toSeconds;
    /** Seconds cut from the start of the log (warm-up, thesis section 4.4). */
    public double skipWarmupSeconds;
    /** Seconds cut from the end of the log (cool-down). */
    public double skipCooldownSeconds;
    /** How many trace trees to keep for display and export. */
    public int keepTrees = 10;
    /** Timeline bucket width in ns; 0 chooses one (1 s, or wider to stay under 1000 buckets). */
    public long bucketNanos;
    /** Per-probe cost to subtract (perturbation correction). */
    public ProbeCost probeCost = ProbeCost.NONE;
    /** Thread groups for service demands (empty: one group of all threads). */
    public List<DemandCollector.Group> groups = new ArrayList<>();
    /** Extra listeners fed with the filtered executions during the pass (e.g. a Chrome trace writer). */
    public List<ExecutionListener> extraListeners = new ArrayList<>();
    public ProgressListener progress = ProgressListener.NONE;
}
