package io.sonde.sim.validate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The experimental columns of Tables 5.1-5.7 of the thesis, with the thesis' own simulator (DAPS
 * with its Linux 2.4 scheduler, "DAPS L24") on the same rows. Loaded from the resource
 * {@code io/sonde/sim/validate/thesis-tables.csv}.
 */
public final class ThesisTables {

    /** One row: a measure of one table at one x (dispatcher threads or clients). */
    public record Row(String table, String measure, int x, double experiment, double dapsL24) {}

    private final List<Row> rows;

    private ThesisTables(List<Row> rows) {
        this.rows = List.copyOf(rows);
    }

    /** Loads the bundled tables. */
    public static ThesisTables load() {
        String res = "/io/sonde/sim/validate/thesis-tables.csv";
        try (InputStream in = ThesisTables.class.getResourceAsStream(res)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + res);
            }
            List<Row> rows = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(",");
                if (f.length != 5) {
                    throw new IllegalStateException(res + " line " + n + ": expected 5 fields, got " + f.length);
                }
                rows.add(new Row(f[0], f[1], Integer.parseInt(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4])));
            }
            return new ThesisTables(rows);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** All rows in file order. */
    public List<Row> rows() {
        return rows;
    }

    /** Rows grouped by table id ("5.1" ... "5.7"), in file order. */
    public Map<String, List<Row>> byTable() {
        Map<String, List<Row>> m = new LinkedHashMap<>();
        for (Row row : rows) {
            m.computeIfAbsent(row.table(), k -> new ArrayList<>()).add(row);
        }
        return m;
    }

    /** Mean absolute relative error of {@code predicted} against the experiment over {@code rows}. */
    public static double meanAbsRelError(List<Row> rows, double[] predicted) {
        if (rows.size() != predicted.length) {
            throw new IllegalArgumentException(rows.size() + " rows but " + predicted.length + " predictions");
        }
        double s = 0;
        for (int i = 0; i < predicted.length; i++) {
            s += Math.abs(predicted[i] - rows.get(i).experiment()) / rows.get(i).experiment();
        }
        return s / predicted.length;
    }

    /** DAPS L24's mean absolute relative error over {@code rows}. */
    public static double dapsError(List<Row> rows) {
        double[] d = new double[rows.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = rows.get(i).dapsL24();
        }
        return meanAbsRelError(rows, d);
    }
}
