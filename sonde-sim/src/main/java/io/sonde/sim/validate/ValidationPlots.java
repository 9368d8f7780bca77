package io.sonde.sim.validate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG plots in the manner of the thesis' Figures 5.2-5.5 and 5.10-5.12: per table and measure the
 * experiment, DAPS L24 and Sonde against the number of dispatcher threads or clients. Rendered
 * headless (no display needed).
 */
public final class ValidationPlots {
    private ValidationPlots() {}

    /** Writes one PNG per table into {@code dir}; returns the files written. */
    public static List<Path> write(List<Validator.TableResult> results, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        for (Validator.TableResult r : results) {
            Map<String, List<Integer>> byMeasure = new LinkedHashMap<>();
            for (int i = 0; i < r.rows().size(); i++) {
                byMeasure.computeIfAbsent(r.rows().get(i).measure(), k -> new ArrayList<>()).add(i);
            }
            boolean pool = r.table().compareTo("5.5") < 0;
            XYChart chart = new XYChartBuilder().width(800).height(500)
                    .title("Table " + r.table() + ": " + String.join(", ", byMeasure.keySet()))
                    .xAxisTitle(pool ? "dispatcher threads" : "clients").yAxisTitle("ms").build();
            chart.getStyler().setMarkerSize(7);
            for (Map.Entry<String, List<Integer>> e : byMeasure.entrySet()) {
                List<Integer> idx = e.getValue();
                double[] x = new double[idx.size()];
                double[] exp = new double[idx.size()];
                double[] daps = new double[idx.size()];
                double[] sonde = new double[idx.size()];
                for (int k = 0; k < idx.size(); k++) {
                    ThesisTables.Row row = r.rows().get(idx.get(k));
                    x[k] = row.x();
                    exp[k] = row.experiment();
                    daps[k] = row.dapsL24();
                    sonde[k] = r.sonde()[idx.get(k)];
                }
                String m = e.getKey().replace("_ms", "");
                chart.addSeries(m + " experiment", x, exp).setMarker(SeriesMarkers.CIRCLE);
                chart.addSeries(m + " DAPS L24", x, daps).setMarker(SeriesMarkers.DIAMOND);
                chart.addSeries(m + " Sonde", x, sonde).setMarker(SeriesMarkers.SQUARE);
            }
            Path file = dir.resolve("table-" + r.table().replace('.', '_') + ".png");
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            out.add(file);
        }
        return out;
    }
}
