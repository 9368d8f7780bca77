package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A benchmark, not a test of the build (its name keeps it out of the default test run): the
 * dashboard on a log of 50 agents with 10,000 operations in all, in headless Chromium. It reports
 * the time to first render of the operations page (navigation start to the page's own "rendered"
 * mark: the page, /api/log, /api/operations for 10,000 operations and the table of the busiest
 * 200), the time to update it (choose another operation: the table again and that operation's
 * time series), the first render with every row drawn ("Show all"), and the traces page's first
 * render. Medians of {@value #ROUNDS} rounds. Run it with
 * {@code mvn -pl sonde-cli -am verify -DskipITs -Dtest=DashboardRenderBenchmark}; figures in
 * docs/dashboard.md.
 */
class DashboardRenderBenchmark {
    static final int AGENTS = 50;
    static final int OPERATIONS_PER_AGENT = 200;
    static final int CALLS_PER_OPERATION = 10;
    static final int ROUNDS = 5;

    @TempDir
    Path tmp;

    @Test
    void renderTimes() throws Exception {
        String missing = Chromium.ensureInstalled();
        Assumptions.assumeTrue(missing == null, missing);
        Path root = Files.createDirectory(tmp.resolve("agents"));
        long t0 = System.nanoTime();
        for (int a = 0; a < AGENTS; a++) record(root.resolve("agent-" + a), a);
        System.out.printf(Locale.ROOT, "recorded %d agents x %d operations x %d calls in %.1f s%n", AGENTS, OPERATIONS_PER_AGENT,
                CALLS_PER_OPERATION, (System.nanoTime() - t0) / 1e9);

        DashboardBrowserTest.Launched server = DashboardBrowserTest.launch("dashboard", root.toString(), "--port", "0");
        ChromeDriver browser = Chromium.start();
        try {
            JavascriptExecutor js = browser;
            List<Double> first = new ArrayList<>();
            List<Double> update = new ArrayList<>();
            List<Double> traces = new ArrayList<>();
            List<Double> everyRow = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                browser.get("about:blank");
                browser.get(server.url() + "/#/operations");
                waitRendered(browser, 1);
                WebElement caption = browser.findElement(By.id("operations-caption"));
                assertThat(caption.getAttribute("data-operations")).isEqualTo(Integer.toString(AGENTS * OPERATIONS_PER_AGENT));
                first.add(number(js.executeScript("return Number(document.body.dataset.renderedAt)")));
                // update: another operation chosen (the table and its time series again)
                String op = "bench.a" + (AGENTS - 1 - round) + ".Service.op" + (round * 7);
                double start = number(js.executeScript("const t = performance.now(); location.hash = '#/operations?op=' + arguments[0]; return t;", op));
                waitRendered(browser, 2);
                // the time series shown (a chart, or the note that none of its calls lies on the timeline)
                new WebDriverWait(browser, Duration.ofSeconds(120)).until(d -> d.findElement(By.id("operation-detail")).getText().contains(op + " over time"));
                update.add(number(js.executeScript("return performance.now()")) - start);
                // every row drawn ("Show all"): what the page would cost without its first-200 view
                browser.get("about:blank");
                browser.get(server.url() + "/#/operations?all=1");
                waitRendered(browser, 1);
                assertThat(browser.findElement(By.id("operations-caption")).getAttribute("data-shown")).isEqualTo(Integer.toString(AGENTS * OPERATIONS_PER_AGENT));
                everyRow.add(number(js.executeScript("return Number(document.body.dataset.renderedAt)")));
                browser.get("about:blank");
                browser.get(server.url() + "/#/traces?limit=100");
                waitRendered(browser, 1);
                traces.add(number(js.executeScript("return Number(document.body.dataset.renderedAt)")));
            }
            System.out.printf(Locale.ROOT, "dashboard, %d agents, %d operations: operations page first render %.0f ms, update %.0f ms,"
                    + " with all rows %.0f ms; traces page first render %.0f ms (medians of %d; rounds: %s / %s / %s / %s)%n", AGENTS,
                    AGENTS * OPERATIONS_PER_AGENT, median(first), median(update), median(everyRow), median(traces), ROUNDS, rounded(first),
                    rounded(update), rounded(everyRow), rounded(traces));
        } finally {
            browser.quit();
            server.process().destroy();
            server.process().waitFor(30, TimeUnit.SECONDS);
        }
    }

    static void record(Path dir, int agent) {
        Map<String, String> s = new HashMap<>();
        s.put("writer", "file");
        s.put("file.dir", dir.toString());
        s.put("policy", "block-forever");
        try (Monitor m = MonitorAccess.start(SondeConfig.of(s))) {
            MethodProbe[] probes = new MethodProbe[OPERATIONS_PER_AGENT];
            for (int i = 0; i < probes.length; i++) probes[i] = m.methodProbe("bench.a" + agent + ".Service.op" + i, "()V");
            for (int c = 0; c < CALLS_PER_OPERATION; c++) {
                for (MethodProbe p : probes) p.exit(p.enter());
            }
        }
    }

    static void waitRendered(ChromeDriver browser, int count) {
        new WebDriverWait(browser, Duration.ofSeconds(120)).until(d -> {
            Object r = ((JavascriptExecutor) d).executeScript("return document.body && document.body.dataset.rendered");
            return r != null && Integer.parseInt(r.toString()) >= count;
        });
    }

    static double number(Object o) {
        return ((Number) o).doubleValue();
    }

    static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        return s.get(s.size() / 2);
    }

    static String rounded(List<Double> v) {
        List<String> out = new ArrayList<>();
        for (double d : v) out.add(Long.toString(Math.round(d)));
        return String.join(",", out);
    }
}
