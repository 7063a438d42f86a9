package dev.lockstep.examples.inventory.load;

import java.util.List;
import java.util.Locale;

/** The load run's results as a progress line, a Markdown report and an SVG chart of oversold units. */
final class Report {

    private static final String[] HEADER = {"stage", "claims it", "accepted", "final stock", "oversold", "409", "503",
        "p50 ms", "p99 ms", "Redis cmds/order"};

    private Report() {
    }

    /** One finished row, for the console while the run goes on. */
    static String line(RunResult r) {
        return String.format(Locale.ROOT, "%-30s %-18s accepted %4d, final stock %3d, oversold %3d%s%s  (%.1f s)",
                r.variant().title, r.stage().id(), r.accepted(), r.finalStock(), r.oversold(),
                r.otherAnswers() == 0 ? "" : ", " + r.otherAnswers() + " answers other than 201, 409, 503",
                r.keptItsClaim() ? "" : "  BROKE ITS CLAIM", r.took().toMillis() / 1000.0);
    }

    /** A section per variant: what the run did, then a table with a row per stage. */
    static String markdown(List<RunResult> results) {
        StringBuilder out = new StringBuilder("# Load run\n\n")
                .append(String.format(Locale.ROOT, "Two instances of the service, each in its own JVM (Java %s), "
                        + "%d cores, one Redis. Every order is one unit. Oversold: units the customers were told "
                        + "they bought plus units still in stock, beyond the stock there was.%n",
                        Runtime.version().feature(), Runtime.getRuntime().availableProcessors()));
        for (Variant variant : Variant.values()) {
            List<RunResult> rows = results.stream().filter(r -> r.variant() == variant).toList();
            if (rows.isEmpty()) {
                continue;
            }
            Variant.Shape shape = variant.full;
            out.append("\n## ").append(variant.title).append("\n\n")
                    .append(String.format(Locale.ROOT, "%d orders over %d product(s) of %d units, %d at a time per "
                            + "instance; each order works %d ms holding the lock; lease %s%s.%n%n",
                            shape.orders(), shape.products(), shape.stock(), shape.workersPerInstance(),
                            variant.work.toMillis(), variant.lease == null ? "30 s (the default)"
                                    : variant.lease.toMillis() + " ms",
                            stop(variant)))
                    .append("| ").append(String.join(" | ", HEADER)).append(" |\n")
                    .append("|---|---|").append("---:|".repeat(HEADER.length - 2)).append('\n');
            for (RunResult r : rows) {
                out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %d | %d | %.1f | %.1f | %.1f |%n",
                        r.stage().id(), r.claimed() ? "yes" : "no", r.accepted(), r.finalStock(),
                        r.oversold() == 0 ? "0" : "**" + r.oversold() + "**", r.outOfStock(), r.lockBusy(),
                        r.p50Millis(), r.p99Millis(), r.commandsPerOrder()));
            }
        }
        return out.toString();
    }

    /** How the run stops instance A, as the rest of a sentence; empty when it does not. */
    private static String stop(Variant variant) {
        if (variant.pause != null) {
            return "; instance A stopped for " + variant.pause.toMillis() + " ms at its third sale";
        }
        return variant.wakesInReadGap ? "; instance A stopped at its third sale and woken once an order of instance B "
                + "has read the stock, B stopped there until A's order has ended" : "";
    }

    /** Oversold units per stage, a panel per variant, on one scale; a stage that claims the variant is in bold. */
    static String svg(List<RunResult> results) {
        int panelWidth = 330;
        int chartTop = 50;
        int chartHeight = 220;
        long max = Math.max(1, results.stream().mapToLong(RunResult::oversold).max().orElse(1));
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"390\" font-family=\"sans-serif\" "
                        + "font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                panelWidth * Variant.values().length));
        for (Variant variant : Variant.values()) {
            List<RunResult> rows = results.stream().filter(r -> r.variant() == variant).toList();
            int left = variant.ordinal() * panelWidth + 20;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                    left, variant.title));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>%n",
                    left, chartTop + chartHeight, left + panelWidth - 40, chartTop + chartHeight));
            int slot = (panelWidth - 40) / Math.max(1, rows.size());
            for (int i = 0; i < rows.size(); i++) {
                RunResult r = rows.get(i);
                int height = (int) Math.max(2, r.oversold() * chartHeight / max);
                int x = left + i * slot + 6;
                int y = chartTop + chartHeight - height;
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
                        x, y, slot - 12, height, r.oversold() > 0 ? "#d9534f" : "#5cb85c"));
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>%n",
                        x + (slot - 12) / 2, y - 4, r.oversold()));
                int labelX = x + (slot - 12) / 2;
                int labelY = chartTop + chartHeight + 14;
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-45 %d %d)\"%s>%s</text>%n",
                        labelX, labelY, labelX, labelY, r.claimed() ? " font-weight=\"bold\"" : "", r.stage().id()));
            }
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"380\" fill=\"#555\">Oversold units per stage (red: "
                + "some units sold twice). Bold: the stage claims to survive the variant.</text>%n</svg>%n"));
        return svg.toString();
    }
}
