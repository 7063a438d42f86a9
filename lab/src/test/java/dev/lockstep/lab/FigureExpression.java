package dev.lockstep.lab;

import dev.lockstep.bench.Results;
import dev.lockstep.bench.Results.Run;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a quoted benchmark figure follows from a JMH results file: arithmetic ({@code + - * /}, the
 * usual precedence, parentheses; tokens apart by spaces, {@code (} and {@code )} too) over numbers
 * and run figures, read with the bench's own {@link Results} as the tables in
 * {@code docs/performance.md} are.
 *
 * <p>A run figure is {@code Benchmark.method[param=value,...,threads=N].metric}: the one run with
 * those parameters, and its {@code score}, {@code p50}, {@code p90} or {@code max}, or any other
 * name for that counter per acquisition ({@code roundTrips}, {@code scriptCalls}, {@code commands}),
 * as {@link Run#perAcquisition} gives it. A run figure written {@code [param=value]} alone is the
 * one before it with those parameters changed, so a ratio reads
 * {@code ContendedThroughput.twoClients[contender=V5_PUBSUB_RETRY,threads=16].score / [contender=REDISSON_LOCK]}.
 */
final class FigureExpression {

    private static final Pattern RUN = Pattern.compile("([\\w.]*)\\[([^\\]]*)](?:\\.(\\w+))?");

    private final Results results;
    private final List<String> tokens;
    private int next;
    /** The last run figure read, which a bare {@code [...]} refines. */
    private String benchmark;
    private final Map<String, String> selector = new HashMap<>();
    private String metric;

    private FigureExpression(Results results, String expression) {
        this.results = results;
        this.tokens = Arrays.asList(expression.strip().split("\\s+"));
    }

    /** The value of {@code expression} on {@code results}; throws IllegalArgumentException naming what it cannot read. */
    static double evaluate(Results results, String expression) {
        FigureExpression parser = new FigureExpression(results, expression);
        double value = parser.sum();
        if (parser.next < parser.tokens.size()) {
            throw new IllegalArgumentException("unexpected '" + parser.tokens.get(parser.next) + "' in " + expression);
        }
        return value;
    }

    private double sum() {
        double value = product();
        while (next < tokens.size() && (tokens.get(next).equals("+") || tokens.get(next).equals("-"))) {
            value = tokens.get(next++).equals("+") ? value + product() : value - product();
        }
        return value;
    }

    private double product() {
        double value = operand();
        while (next < tokens.size() && (tokens.get(next).equals("*") || tokens.get(next).equals("/"))) {
            value = tokens.get(next++).equals("*") ? value * operand() : value / operand();
        }
        return value;
    }

    private double operand() {
        if (next == tokens.size()) {
            throw new IllegalArgumentException("an expression ends where a number or a run figure should be");
        }
        String token = tokens.get(next++);
        if (token.equals("(")) {
            double value = sum();
            if (next == tokens.size() || !tokens.get(next++).equals(")")) {
                throw new IllegalArgumentException("a '(' with no ')' after it");
            }
            return value;
        }
        Matcher run = RUN.matcher(token);
        if (!run.matches()) {
            return Double.parseDouble(token);
        }
        if (!run.group(1).isEmpty()) {
            benchmark = run.group(1);
            selector.clear();
        } else if (benchmark == null) {
            throw new IllegalArgumentException(token + " refines no run figure before it");
        }
        for (String pair : run.group(2).split(",")) {
            String[] keyValue = pair.split("=", 2);
            if (keyValue.length != 2) {
                throw new IllegalArgumentException(token + ": '" + pair + "' is not param=value");
            }
            selector.put(keyValue[0], keyValue[1]);
        }
        if (run.group(3) != null) {
            metric = run.group(3);
        }
        if (metric == null) {
            throw new IllegalArgumentException(token + " names no metric");
        }
        return value(selected(token), metric);
    }

    private Run selected(String token) {
        List<Run> matching = results.of(benchmark).stream()
                .filter(run -> selector.entrySet().stream().allMatch(s -> s.getKey().equals("threads")
                        ? run.threads() == Integer.parseInt(s.getValue())
                        : run.param(s.getKey()).equals(s.getValue())))
                .toList();
        if (matching.size() != 1) {
            throw new IllegalArgumentException(token + " selects " + matching.size() + " runs of " + benchmark
                    + " " + selector + ", not one");
        }
        return matching.get(0);
    }

    private static double value(Run run, String metric) {
        return switch (metric) {
            case "score" -> run.primary().score();
            case "p50" -> run.primary().p50();
            case "p90" -> run.primary().p90();
            case "max" -> run.primary().max();
            default -> run.perAcquisition(metric);
        };
    }
}
