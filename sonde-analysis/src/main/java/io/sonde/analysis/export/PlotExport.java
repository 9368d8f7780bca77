package io.sonde.analysis.export;

import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.analysis.stats.OperationStats;
import io.sonde.analysis.stats.StatisticsCollector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG plots of an analysis (drawn headless): the mean response time (inclusive wall time) per
 * timeline bucket for the busiest operations, and their latency histograms.
 */
public final class PlotExport {
    /** File name of the response-time-over-time plot. */
    public static final String RESPONSE_TIME_PNG = "response-time.png";
    /** File name of the latency histogram plot. */
    public static final String HISTOGRAM_PNG = "latency-histogram.png";
    private static final int HISTOGRAM_BUCKETS = 50;

    private PlotExport() {}

    /**
     * Writes both plots into {@code dir} (created if needed) for at most {@code maxOperations}
     * operations, the hot spots first.
     *
     * @return the files written
     */
    public static List<Path> write(AnalysisResult r, Path dir, int maxOperations) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        List<OperationStats> ops = r.statistics().hotSpots(maxOperations);
        List<Path> written = new ArrayList<>();
        Path rt = dir.resolve(RESPONSE_TIME_PNG);
        save(responseTime(r.statistics(), ops), rt);
        written.add(rt);
        Path h = dir.resolve(HISTOGRAM_PNG);
        save(histogram(ops), h);
        written.add(h);
        return written;
    }

    private static void save(XYChart chart, Path file) throws IOException {
        javax.imageio.ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", file.toFile());
    }

    static XYChart responseTime(StatisticsCollector st, List<OperationStats> ops) {
        XYChart c = new XYChartBuilder().width(1000).height(600).title("Response time over time")
                .xAxisTitle("time since start (s)").yAxisTitle("mean inclusive wall time (ms)").build();
        c.getStyler().setMarkerSize(4);
        double bucketSeconds = st.bucketNanos() / 1e9;
        for (OperationStats s : ops) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int b = 0; b < s.buckets(); b++) {
                double m = s.meanWallInBucket(b);
                if (m < 0) continue;
                x.add(b * bucketSeconds);
                y.add(m / 1e6);
            }
            if (x.isEmpty()) continue;
            XYSeries series = c.addSeries(uniqueName(c, s.operation().name()), x, y);
            series.setMarker(SeriesMarkers.CIRCLE);
        }
        if (c.getSeriesCollection().isEmpty()) c.addSeries("no executions", new double[] {0}, new double[] {0});
        return c;
    }

    static XYChart histogram(List<OperationStats> ops) {
        XYChart c = new XYChartBuilder().width(1000).height(600).title("Latency histogram (inclusive wall time)")
                .xAxisTitle("inclusive wall time (ms)").yAxisTitle("executions").build();
        c.getStyler().setMarkerSize(0);
        for (OperationStats s : ops) {
            LatencyDistribution d = s.inclusive();
            long[] counts = d.bucketCounts(HISTOGRAM_BUCKETS);
            double width = Math.max(1.0, (double) (d.max() - d.min() + 1) / HISTOGRAM_BUCKETS);
            double[] x = new double[2 * HISTOGRAM_BUCKETS];
            double[] y = new double[2 * HISTOGRAM_BUCKETS];
            // A step outline: each bucket drawn from its lower to its upper edge.
            for (int b = 0; b < HISTOGRAM_BUCKETS; b++) {
                x[2 * b] = (d.min() + b * width) / 1e6;
                x[2 * b + 1] = (d.min() + (b + 1) * width) / 1e6;
                y[2 * b] = counts[b];
                y[2 * b + 1] = counts[b];
            }
            c.addSeries(uniqueName(c, s.operation().name()), x, y).setMarker(SeriesMarkers.NONE);
        }
        if (c.getSeriesCollection().isEmpty()) c.addSeries("no executions", new double[] {0}, new double[] {0});
        return c;
    }

    private static String uniqueName(XYChart c, String name) {
        String n = name;
        for (int i = 2; c.getSeries(n) != null; i++) n = name + " (" + i + ")";
        return n;
    }
}
