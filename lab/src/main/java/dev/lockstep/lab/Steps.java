package dev.lockstep.lab;

import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.scenario.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The T1..T6 steps of the first source article's story (docs/sources.md), found in a recorded
 * foreign-unlock run, so the lab can name them beside the timeline. Presentation only: the scenario records what happened,
 * this class points at the events that are the steps.
 */
final class Steps {

    /** The scenario whose history tells the six-step story. */
    static final String SCENARIO = "foreign-unlock";

    /**
     * One step.
     *
     * @param name  T1 to T6
     * @param event the event that is the step
     * @param text  what happens, in a few words
     */
    record Step(String name, Event event, String text) {
    }

    private Steps() {
    }

    /** The steps found in {@code outcome}'s history; none for other scenarios, or where a step did not happen. */
    static List<Step> of(Outcome outcome) {
        if (!SCENARIO.equals(outcome.scenario().id())) {
            return List.of();
        }
        List<Event> events = outcome.history().events();
        List<Step> steps = new ArrayList<>();
        Optional<Event> t1 = first(events, 0, e -> e.actor().equals("A") && e.kind() == Kind.ACQUIRED);
        if (t1.isEmpty()) {
            return steps;
        }
        long lease = t1.get().leaseFloor() == Long.MAX_VALUE ? -1 : (t1.get().leaseFloor() - t1.get().since()) / 1_000_000;
        steps.add(new Step("T1", t1.get(), "A takes the lock" + (lease > 0 ? " with a " + lease + " ms lease" : "")));
        long after = t1.get().at();
        first(events, after, e -> e.actor().equals("A") && e.kind() == Kind.ENTER)
                .ifPresent(e -> steps.add(new Step("T2", e, "A starts work that takes longer than the lease")));
        Optional<Event> t4 = first(events, after, e -> e.actor().equals("B") && e.kind() == Kind.ACQUIRED);
        first(events, after, e -> e.actor().startsWith(History.REDIS) && e.kind() == Kind.EXPIRED
                && t4.map(b -> e.at() <= b.at() + 50_000_000L).orElse(true))
                .ifPresent(e -> steps.add(new Step("T3", e,
                        "A's lease has run out, A works on (Redis reports it as B's request finds the key stale)")));
        t4.ifPresent(e -> steps.add(new Step("T4", e, "B takes the lock: the key was free")));
        t4.flatMap(b -> first(events, b.at(), e -> e.actor().equals("B") && e.kind() == Kind.ENTER))
                .ifPresent(e -> steps.add(new Step("T5", e, "B works")));
        first(events, after, e -> e.actor().equals("A") && (e.kind() == Kind.UNLOCK || e.kind() == Kind.UNLOCK_REFUSED))
                .ifPresent(e -> steps.add(new Step("T6", e, e.kind() == Kind.UNLOCK
                        ? "A finishes and unlocks: the key it deletes is B's"
                        : "A finishes and unlocks: refused, the key is not A's any more")));
        steps.sort((x, y) -> x.name().compareTo(y.name()));
        return steps;
    }

    /** The steps by event, for drawing them on a timeline. */
    static Map<Event, String> byEvent(List<Step> steps) {
        Map<Event, String> names = new LinkedHashMap<>();
        steps.forEach(s -> names.put(s.event(), s.name()));
        return names;
    }

    /** The steps as lines under a timeline; empty when there are none. */
    static String text(List<Step> steps) {
        if (steps.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("The story's six steps (T1..T6 in the first source article, listed in "
                + "docs/sources.md), in this run:\n");
        for (Step step : steps) {
            out.append(String.format("  %s %6d ms  %s\n", step.name(), step.event().millis(), step.text()));
        }
        return out.toString();
    }

    /** The steps as a Markdown table; empty when there are none. */
    static String markdown(List<Step> steps) {
        if (steps.isEmpty()) {
            return "";
        }
        // Results pages sit two folders below docs/.
        StringBuilder out = new StringBuilder("The story's six steps (T1..T6 in the [first source article]"
                + "(../../sources.md#1)), in this run:\n\n"
                + "| step | ms | what happens |\n|---|---:|---|\n");
        for (Step step : steps) {
            out.append("| ").append(step.name()).append(" | ").append(step.event().millis()).append(" | ")
                    .append(step.text()).append(" |\n");
        }
        return out.toString();
    }

    private static Optional<Event> first(List<Event> events, long notBefore, Predicate<Event> test) {
        return events.stream().filter(e -> e.at() >= notBefore).filter(test).findFirst();
    }
}
