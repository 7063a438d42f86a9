package dev.lockstep.lab;

import dev.lockstep.testkit.soak.SoakVerdict;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Collectors;

/** A soak's verdicts as Markdown: one table row per stage, then what each stage met. */
final class SoakReport {

    private SoakReport() {
    }

    /** The report of {@code verdicts}, run with {@code seed} on {@code redis}. */
    static String markdown(List<SoakVerdict> verdicts, long seed, String redis) {
        StringBuilder out = new StringBuilder();
        SoakVerdict first = verdicts.get(0);
        out.append("Run on ").append(LocalDate.now()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores, Java ").append(Runtime.version().feature()).append(", ").append(redis)
                .append(", seed ").append(seed).append(": ").append(first.settings().clients())
                .append(" client JVMs of ").append(first.settings().threads()).append(" workers on ")
                .append(first.settings().locks()).append(" locks, lease ")
                .append(first.settings().lease().toMillis()).append(" ms, ")
                .append(first.settings().duration().toSeconds()).append(" s of faults per stage.\n\n");
        out.append("| stage | faults | acquisitions | re-entries | forceUnlocks | interrupted waits | failed calls "
                + "| waits given up | losses signalled | overlaps | stuck holds | keys without TTL | wake-up p50 | p99 "
                + "| worst | worst, no fault active |\n");
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (SoakVerdict v : verdicts) {
            out.append("| ").append(v.stage().name()).append(" | ").append(v.faults()).append(" | ")
                    .append(v.acquisitions()).append(" | ").append(v.reentries()).append(" | ").append(v.forced())
                    .append(" | ").append(v.interrupted()).append(" | ").append(v.errors()).append(" | ").append(v.gaveUp())
                    .append(" | ").append(v.losses())
                    .append(" | ").append(v.overlaps().size()).append(" | ").append(v.stuck().size()).append(" | ")
                    .append(v.keysWithoutTtl()).append(" | ").append(v.wakeUpMillis(0.5)).append(" ms | ")
                    .append(v.wakeUpMillis(0.99)).append(" ms | ").append(v.wakeUpMillis(1.0)).append(" ms | ")
                    .append(v.worstQuietWakeUpMillis()).append(" ms |\n");
        }
        for (SoakVerdict v : verdicts) {
            out.append("\n### ").append(v.stage().name()).append(v.passed() ? "" : ": FAILED").append("\n\n");
            out.append("Faults: ").append(v.faultCounts().entrySet().stream()
                    .map(e -> e.getKey().label() + " " + e.getValue())
                    .collect(Collectors.joining(", "))).append(".\n\n");
            out.append("Slowest wake-ups after a release:\n\n");
            v.worstWakeUps().forEach(line -> out.append("- ").append(line).append('\n'));
            list(out, "Overlaps", v.overlaps());
            list(out, "Stuck holds", v.stuck());
        }
        return out.toString();
    }

    private static void list(StringBuilder out, String title, List<String> items) {
        out.append('\n').append(title).append(": ").append(items.isEmpty() ? "none.\n" : "\n\n");
        items.forEach(item -> out.append("- ").append(item).append('\n'));
    }
}
