package dev.lockstep.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.stream.StreamSupport;

/** The figures of one JMH JSON results file, for the charts, the tables and the docs' check of quoted figures. */
public final class Results {

    /** A score with its median, 90th percentile and maximum: of the samples for a latency, of the iterations for a throughput. */
    public record Metric(double score, double p50, double p90, double max, String unit) {

        private static Metric of(JsonObject metric) {
            JsonObject percentiles = metric.getAsJsonObject("scorePercentiles");
            return new Metric(metric.get("score").getAsDouble(),
                    percentiles.get("50.0").getAsDouble(),
                    percentiles.get("90.0").getAsDouble(),
                    percentiles.get("100.0").getAsDouble(),
                    metric.get("scoreUnit").getAsString());
        }
    }

    /**
     * One benchmark configuration.
     *
     * @param benchmark the method's simple name, e.g. {@code ContendedThroughput.twoClients}
     * @param params    JMH parameters by name
     * @param threads   all threads of the run
     * @param primary   the benchmark's own figure
     * @param secondary per-client figures and {@link RedisWork}'s counters, by name
     */
    public record Run(String benchmark, Map<String, String> params, int threads, Metric primary, Map<String, Metric> secondary) {

        /** The JMH parameter {@code name}, or "" when the benchmark has none of that name. */
        public String param(String name) {
            return params.getOrDefault(name, "");
        }

        Metric secondary(String name) {
            Metric metric = secondary.get(name);
            if (metric == null) {
                throw new NoSuchElementException(benchmark + " " + params + " has no " + name);
            }
            return metric;
        }

        /** A {@link RedisWork} total divided by the acquisitions counted over the same iterations. */
        public double perAcquisition(String counter) {
            return secondary(counter).score() / secondary("acquisitions").score();
        }
    }

    private final List<Run> runs;

    private Results(List<Run> runs) {
        this.runs = runs;
    }

    /** Reads a JMH JSON results file. */
    public static Results read(Path json) throws IOException {
        try (Reader reader = Files.newBufferedReader(json)) {
            List<Run> runs = StreamSupport.stream(JsonParser.parseReader(reader).getAsJsonArray().spliterator(), false)
                    .map(JsonElement::getAsJsonObject)
                    .map(Results::run)
                    .toList();
            return new Results(runs);
        }
    }

    private static Run run(JsonObject entry) {
        String fullName = entry.get("benchmark").getAsString();
        String[] parts = fullName.split("\\.");
        Map<String, String> params = new HashMap<>();
        if (entry.has("params")) {
            entry.getAsJsonObject("params").entrySet().forEach(p -> params.put(p.getKey(), p.getValue().getAsString()));
        }
        Map<String, Metric> secondary = new HashMap<>();
        entry.getAsJsonObject("secondaryMetrics").entrySet()
                .forEach(s -> secondary.put(s.getKey(), Metric.of(s.getValue().getAsJsonObject())));
        return new Run(parts[parts.length - 2] + "." + parts[parts.length - 1], params, entry.get("threads").getAsInt(),
                Metric.of(entry.getAsJsonObject("primaryMetric")), secondary);
    }

    /** The runs of {@code benchmark} ({@code Class.method}), by thread count. */
    public List<Run> of(String benchmark) {
        return runs.stream().filter(r -> r.benchmark().equals(benchmark))
                .sorted(Comparator.comparingInt(Run::threads)).toList();
    }

    /** The run of {@code benchmark} with {@code param} = {@code value} at {@code threads}, if it was measured. */
    Optional<Run> find(String benchmark, String param, String value, int threads) {
        return of(benchmark).stream()
                .filter(r -> r.param(param).equals(value) && r.threads() == threads)
                .findFirst();
    }

    /** Like {@link #find} for a run that must be there. */
    Run get(String benchmark, String param, String value, int threads) {
        return find(benchmark, param, value, threads).orElseThrow(() -> new NoSuchElementException(
                "no " + benchmark + " with " + param + "=" + value + " at " + threads + " threads"));
    }

    /**
     * The unit latencies are read in: the median {@code PING} round trip in microseconds, averaged
     * over its measurements (before and after the latency benchmarks).
     */
    double roundTripMicros() {
        return of("RoundTrip.ping").stream().mapToDouble(run -> run.primary().p50()).average().orElseThrow();
    }

    /** Thread counts measured for {@code benchmark}, ascending. */
    List<Integer> threads(String benchmark) {
        return of(benchmark).stream().map(Run::threads).distinct().sorted().toList();
    }
}
