package io.sonde.bench.overhead.report;

import io.sonde.bench.overhead.Phase;
import io.sonde.bench.overhead.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Writes {@code overhead.png}: one bar chart per JDK and thread count, the mean time per call in
 * each phase, one series per framework (headless; XChart).
 */
public final class ChartReport {

    private ChartReport() {}

    /** Writes the chart for {@code results} to {@code file} (a PNG). */
    public static void write(Path file, List<Result> results) throws IOException {
        Set<String> blocks = new LinkedHashSet<>();
        List<String> frameworks = new ArrayList<>();
        for (Result r : results) {
            blocks.add(r.jdk() + "\u0000" + r.threads());
            if (!frameworks.contains(r.framework())) {
                frameworks.add(r.framework());
            }
        }
        List<Chart<?, ?>> charts = new ArrayList<>();
        for (String block : blocks) {
            String jdk = block.substring(0, block.indexOf('\u0000'));
            int threads = Integer.parseInt(block.substring(block.indexOf('\u0000') + 1));
            CategoryChart chart = new CategoryChartBuilder().width(640).height(420)
                    .title("JDK " + jdk + ", " + threads + " thread" + (threads == 1 ? "" : "s"))
                    .xAxisTitle("phase").yAxisTitle("mean us per call (depth-10 call)").build();
            chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
            chart.getStyler().setXAxisLabelRotation(20);
            boolean any = false;
            for (String f : frameworks) {
                List<String> phases = new ArrayList<>();
                List<Double> means = new ArrayList<>();
                for (Phase p : Phase.values()) {
                    Double mean = null;
                    for (Result r : results) {
                        if (r.framework().equals(f) && r.jdk().equals(jdk) && r.threads() == threads
                                && r.phase().equals(p.label())) {
                            mean = r.meanUs();
                        }
                    }
                    phases.add(p.label());
                    means.add(mean == null ? 0.0 : mean);
                    any |= mean != null;
                }
                chart.addSeries(f, phases, means);
            }
            if (any) {
                charts.add(chart);
            }
        }
        if (charts.isEmpty()) {
            return;
        }
        int cols = Math.min(2, charts.size());
        int rows = (charts.size() + cols - 1) / cols;
        BitmapEncoder.saveBitmap(charts, rows, cols, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
