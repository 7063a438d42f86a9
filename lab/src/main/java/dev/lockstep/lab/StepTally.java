package dev.lockstep.lab;

import dev.lockstep.testkit.model.Step;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How many steps of each kind, and of each wire fault, a run of the model explorer drew on each
 * stage: what a clean run actually tried, beside how long it ran.
 */
final class StepTally {

    private final Map<String, Map<String, Integer>> byStage = new LinkedHashMap<>();

    /** Counts the steps of one history drawn on {@code stage}. */
    void add(String stage, List<Step> history) {
        Map<String, Integer> counts = byStage.computeIfAbsent(stage, s -> new LinkedHashMap<>());
        for (Step step : history) {
            counts.merge(step.kind().name(), 1, Integer::sum);
            if (step.fault() != Step.WireFault.NONE) {
                counts.merge("with " + step.fault().name(), 1, Integer::sum);
            }
        }
    }

    /** A table: a row per step kind and wire fault, a column per stage; kinds no stage drew are left out. */
    String markdown() {
        List<String> stages = List.copyOf(byStage.keySet());
        StringBuilder md = new StringBuilder("| step |");
        stages.forEach(stage -> md.append(' ').append(stage).append(" |"));
        md.append("\n|---|").append("---:|".repeat(stages.size())).append('\n');
        for (Step.Kind kind : Step.Kind.values()) {
            row(md, kind.name(), stages);
        }
        for (Step.WireFault fault : Step.WireFault.values()) {
            row(md, "with " + fault.name(), stages);
        }
        return md.toString();
    }

    private void row(StringBuilder md, String key, List<String> stages) {
        if (stages.stream().allMatch(stage -> byStage.get(stage).getOrDefault(key, 0) == 0)) {
            return;
        }
        md.append("| ").append(key.toLowerCase(Locale.ROOT).replace('_', ' ')).append(" |");
        stages.forEach(stage -> md.append(' ').append(byStage.get(stage).getOrDefault(key, 0)).append(" |"));
        md.append('\n');
    }
}
