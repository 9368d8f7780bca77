package io.sonde.lab.model;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Plots of a validation ({@link Validation#json}): one PNG per strategy, {@code lab-STRATEGY.png},
 * measured (markers) and predicted (lines) mean response time against clients for each servant
 * kind, both axes logarithmic.
 */
public final class ValidationPlots {
    private ValidationPlots() {}

    /** Writes the plots of the validation JSON {@code rows} into {@code dir}; returns the files. */
    public static List<Path> write(JsonNode rows, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, List<JsonNode>> byStrategy = new LinkedHashMap<>();
        for (JsonNode r : rows) {
            byStrategy.computeIfAbsent(r.path("strategy").asText(), k -> new ArrayList<>()).add(r);
        }
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, List<JsonNode>> e : byStrategy.entrySet()) {
            XYChart chart = new XYChartBuilder().width(800).height(500).title("sonde lab validate: " + e.getKey())
                    .xAxisTitle("clients").yAxisTitle("mean response time (ms)").build();
            chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
            java.awt.Color[] colors = {java.awt.Color.BLUE, new java.awt.Color(0, 140, 0), java.awt.Color.RED, java.awt.Color.MAGENTA};
            int i = 0;
            for (JsonNode r : e.getValue()) {
                java.awt.Color c = colors[i++ % colors.length];
                double[] x = numbers(r.path("clients"));
                String servant = r.path("servant").asText();
                XYSeries m = chart.addSeries(servant + " measured", x, numbers(r.path("measured_ms")));
                m.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                m.setMarkerColor(c);
                XYSeries p = chart.addSeries(servant + " predicted", x, numbers(r.path("predicted_ms")));
                p.setMarker(SeriesMarkers.NONE);
                p.setLineColor(c);
            }
            Path file = dir.resolve("lab-" + e.getKey() + ".png");
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            files.add(file);
        }
        return files;
    }

    private static double[] numbers(JsonNode a) {
        double[] d = new double[a.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = a.get(i).asDouble();
        }
        return d;
    }
}
