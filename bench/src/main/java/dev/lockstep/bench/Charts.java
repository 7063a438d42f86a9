package dev.lockstep.bench;

import dev.lockstep.bench.Results.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * Draws the charts of {@code docs/performance.md} from a JMH JSON results file:
 * {@code java -cp bench/target/benchmarks.jar dev.lockstep.bench.Charts bench/results/quick.json docs/img}.
 */
public final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;

    private Charts() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: Charts RESULTS.json DIRECTORY");
            System.exit(2);
        }
        Results results = Results.read(Path.of(args[0]));
        if (results.of("ScaleOut.twoClients").isEmpty()) {
            draw(results, Path.of(args[1]));
        } else {
            drawScaleOut(results, Path.of(args[1]));
        }
    }

    /** Writes every chart as a PNG into {@code directory}. */
    static void draw(Results results, Path directory) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(directory);
        save(throughput(results, "ContendedThroughput.twoClients", "One lock, threads split over two clients"),
                directory, "contended-throughput");
        save(throughput(results, "IndependentLocksThroughput.twoClients", "A lock per thread, threads split over two clients"),
                directory, "independent-throughput");
        save(perAcquisition(results, "roundTrips", "Round trips per acquisition, one lock"),
                directory, "round-trips-per-acquisition");
        save(perAcquisition(results, "commands", "Redis commands per acquisition (scripts' inner commands too), one lock"),
                directory, "commands-per-acquisition");
        save(uncontended(results), directory, "uncontended-latency");
        save(handoff(results), directory, "handoff-latency");
        save(quorum(results), directory, "v6-acquire-latency");
        save(stalledNode(results), directory, "v6-stalled-node");
    }

    /** The contended-throughput chart alone, as {@code name.png}: for a run of a few contenders. */
    static void drawContended(Results results, Path directory, String name, String title) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(directory);
        save(throughput(results, "ContendedThroughput.twoClients", title), directory, name);
    }

    /**
     * The two charts of the several-names run, as {@code several-names-uncontended.png} (three names,
     * in round trips) and {@code several-names-contended.png} (eight threads, mean and longest wait).
     */
    static void drawSeveralNames(Results results, Path directory) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(directory);
        double rtt = results.roundTripMicros();
        CategoryChart uncontended = bars("Three names on one server, lock() + unlock(), nobody else asking",
                "round trips (median PING = 1)");
        CategoryChart contended = bars("Eight threads over two clients, 2 or 3 of 5 names each", "milliseconds");
        List<String> names = new ArrayList<>();
        List<Double> medians = new ArrayList<>();
        List<Double> sent = new ArrayList<>();
        List<Double> means = new ArrayList<>();
        List<Double> longest = new ArrayList<>();
        for (SeveralNames.Contender contender : SeveralNames.Contender.values()) {
            Run alone = results.get("SeveralNames.lockUnlock", "contender", contender.name(), 1);
            Run crowd = results.get("SeveralNames.contended", "contender", contender.name(), 8);
            names.add(contender.label());
            medians.add(alone.primary().p50() / rtt);
            sent.add(alone.perAcquisition("roundTrips"));
            means.add(crowd.primary().score() / 1000);
            longest.add(crowd.primary().max() / 1000);
        }
        uncontended.addSeries("median time", names, medians);
        uncontended.addSeries("round trips sent", names, sent);
        contended.addSeries("mean wait + lock + unlock", names, means);
        contended.addSeries("longest", names, longest);
        logarithmicFrom(contended, means);
        save(uncontended, directory, "several-names-uncontended");
        save(contended, directory, "several-names-contended");
    }

    /**
     * The two charts of the scale-out run, as {@code scale-out-throughput.png} (operations per
     * second on each ground) and {@code scale-out-cpu.png} (each master's processor time per
     * acquisition, stacked: the bar is the servers' whole cost, its parts how the masters share it).
     */
    static void drawScaleOut(Results results, Path directory) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(directory);
        CategoryChart throughput = bars("1,000 independent locks, 32 threads over two clients", "operations per second");
        CategoryChart cpu = bars("Redis processor time per operation by master, on 1 or 3 masters (µs = ms per 1,000)", "microseconds");
        cpu.getStyler().setStacked(true);
        // Eight bars: steeper labels, or XChart leaves some out.
        cpu.getStyler().setXAxisLabelRotation(45);
        List<String> contenders = new ArrayList<>();
        List<String> cells = new ArrayList<>();
        List<List<Double>> scores = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Double>> byMaster = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (ScaleOutGround.Contender contender : ScaleOutGround.Contender.values()) {
            contenders.add(contender.label());
            for (ScaleOutGround.Ground ground : ScaleOutGround.Ground.values()) {
                Run run = scaleOutRun(results, contender, ground);
                scores.get(ground.ordinal()).add(run.primary().score());
                // Short, so XChart shows every label: the contender and the number of masters.
                cells.add(contender.label() + ", " + ground.masters());
                for (int master = 0; master < byMaster.size(); master++) {
                    byMaster.get(master).add(run.perAcquisition("cpuMaster" + (master + 1)));
                }
            }
        }
        for (ScaleOutGround.Ground ground : ScaleOutGround.Ground.values()) {
            throughput.addSeries(ground.label(), contenders, scores.get(ground.ordinal()));
        }
        logarithmicFrom(throughput, scores.stream().flatMap(List::stream).toList());
        for (int master = 0; master < byMaster.size(); master++) {
            cpu.addSeries("master " + (master + 1), cells, byMaster.get(master));
        }
        save(throughput, directory, "scale-out-throughput");
        save(cpu, directory, "scale-out-cpu");
    }

    private static Run scaleOutRun(Results results, ScaleOutGround.Contender contender, ScaleOutGround.Ground ground) {
        return results.of("ScaleOut.twoClients").stream()
                .filter(r -> r.param("contender").equals(contender.name()) && r.param("ground").equals(ground.name()))
                .findFirst().orElseThrow();
    }

    private static XYChart throughput(Results results, String benchmark, String title) {
        XYChart chart = xy(title, "threads", "acquisitions per second");
        chart.getStyler().setYAxisLogarithmic(false);
        for (Contender contender : Contender.values()) {
            series(chart, contender.label(), results, benchmark, contender, run -> run.primary().score());
        }
        return chart;
    }

    private static XYChart perAcquisition(Results results, String counter, String title) {
        XYChart chart = xy(title, "threads", "per acquisition");
        chart.getStyler().setYAxisLogarithmic(false);
        for (Contender contender : Contender.values()) {
            series(chart, contender.label(), results, "ContendedThroughput.twoClients", contender,
                    run -> run.perAcquisition(counter));
        }
        return chart;
    }

    private static void series(XYChart chart, String label, Results results, String benchmark, Contender contender,
                               ToDoubleFunction<Run> value) {
        List<Integer> threads = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (int count : results.threads(benchmark)) {
            results.find(benchmark, "contender", contender.name(), count).ifPresent(run -> {
                threads.add(count);
                values.add(value.applyAsDouble(run));
            });
        }
        if (!threads.isEmpty()) {
            chart.addSeries(label, threads, values);
        }
    }

    private static CategoryChart uncontended(Results results) {
        double rtt = results.roundTripMicros();
        CategoryChart chart = bars("lock() + unlock() with no contention (median)", "round trips (median PING = 1)");
        List<String> names = new ArrayList<>();
        List<Double> medians = new ArrayList<>();
        for (Contender contender : Contender.values()) {
            names.add(contender.label());
            medians.add(results.get("Uncontended.lockUnlock", "contender", contender.name(), 1).primary().p50() / rtt);
        }
        chart.addSeries("lock + unlock", names, medians);
        chart.addSeries("floor: 2 round trips", names, names.stream().map(n -> 2.0).toList())
                .setChartCategorySeriesRenderStyle(CategorySeriesRenderStyle.Line);
        return chart;
    }

    private static CategoryChart handoff(Results results) {
        CategoryChart chart = bars("Handoff: holder's unlock() to the waiter's return from lock()", "milliseconds");
        List<String> names = new ArrayList<>();
        List<Double> medians = new ArrayList<>();
        List<Double> p90s = new ArrayList<>();
        for (Contender contender : Contender.values()) {
            Run run = results.get("Handoff.twoClients", "contender", contender.name(), 2);
            names.add(contender.label());
            medians.add(run.primary().p50() / 1000);
            p90s.add(run.primary().p90() / 1000);
        }
        chart.addSeries("median", names, medians);
        chart.addSeries("90th percentile", names, p90s);
        logarithmicFrom(chart, medians);
        return chart;
    }

    private static XYChart quorum(Results results) {
        XYChart chart = xy("v6: lock() over N independent masters (median)", "nodes", "microseconds");
        chart.getStyler().setXAxisLogarithmic(false);
        chart.getStyler().setYAxisLogarithmic(false);
        for (QuorumContender contender : QuorumContender.values()) {
            List<Integer> nodes = new ArrayList<>();
            List<Double> medians = new ArrayList<>();
            for (Run run : results.of("QuorumAcquire.acquire")) {
                if (run.param("contender").equals(contender.name())) {
                    nodes.add(Integer.parseInt(run.param("nodes")));
                    medians.add(run.primary().p50());
                }
            }
            chart.addSeries(contender.label(), nodes, medians);
        }
        List<Integer> nodes = new ArrayList<>();
        List<Double> floor = new ArrayList<>();
        for (Run run : results.of("FanOutRoundTrip.pingEvery")) {
            nodes.add(Integer.parseInt(run.param("nodes")));
            floor.add(run.primary().p50());
        }
        chart.addSeries("floor: one PING to every node at once", nodes, floor);
        return chart;
    }

    private static CategoryChart stalledNode(Results results) {
        CategoryChart chart = bars("v6 RedLock over 5 masters, one of them stalled (SIGSTOP), median", "milliseconds");
        List<String> names = new ArrayList<>();
        List<Double> healthy = new ArrayList<>();
        List<Double> stalled = new ArrayList<>();
        for (Run run : results.of("QuorumAcquire.acquireWithOneNodeStalled")) {
            QuorumContender contender = QuorumContender.valueOf(run.param("contender"));
            names.add(contender.label());
            stalled.add(run.primary().p50() / 1000);
            healthy.add(results.of("QuorumAcquire.acquire").stream()
                    .filter(r -> r.param("contender").equals(contender.name()) && r.param("nodes").equals("5"))
                    .findFirst().orElseThrow().primary().p50() / 1000);
        }
        chart.addSeries("5 healthy", names, healthy);
        chart.addSeries("5, one stalled", names, stalled);
        logarithmicFrom(chart, healthy);
        return chart;
    }

    private static XYChart xy(String title, String xAxis, String yAxis) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xAxis).yAxisTitle(yAxis).build();
        chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        return chart;
    }

    private static CategoryChart bars(String title, String yAxis) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).yAxisTitle(yAxis).build();
        chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
        chart.getStyler().setXAxisLabelRotation(20);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        return chart;
    }

    /** A logarithmic axis, whose bars start a decade below the smallest {@code values} (XChart's bars cannot start at 0 on one). */
    private static void logarithmicFrom(CategoryChart chart, List<Double> values) {
        double smallest = values.stream().mapToDouble(Double::doubleValue).min().orElse(1);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(smallest))));
    }

    private static void save(Chart<?, ?> chart, Path directory, String name) throws IOException {
        BitmapEncoder.saveBitmap(chart, directory.resolve(name + ".png").toString(), BitmapFormat.PNG);
    }
}
