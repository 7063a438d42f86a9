package dev.lockstep.testkit.history;

import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Judging a story over several names from its recorded history: who held which names, by their own
 * calls, and which waits made a cycle (each of two actors waiting for a name the other held).
 */
public final class NameHoldings {

    private NameHoldings() {
    }

    /**
     * A stretch an actor held some names, by its own calls: from the acquisition that took them to the
     * unlock, refusal, loss or crash that ended the hold. A lease that ran out unnoticed does not end
     * it: this is what the client believes it holds.
     *
     * @param actor who
     * @param locks the names
     * @param from  when the acquisition returned
     * @param to    when the hold ended, or {@link Long#MAX_VALUE} while it still goes on
     */
    public record Holding(String actor, List<String> locks, long from, long to) {
    }

    /** Every stretch an actor held names, in a story over several names. */
    public static List<Holding> holdings(History history) {
        List<Event> open = new ArrayList<>();
        List<Holding> holdings = new ArrayList<>();
        for (Event e : history.events()) {
            if (e.kind() == Kind.ACQUIRED && !e.locks().isEmpty()) {
                open.add(e);
            } else if (e.kind() == Kind.UNLOCK || e.kind() == Kind.UNLOCK_REFUSED || e.kind() == Kind.LOST
                    || e.kind() == Kind.CRASH) {
                open.removeIf(held -> {
                    boolean ends = held.actor().equals(e.actor()) && held.sharesLockWith(e);
                    if (ends) {
                        holdings.add(new Holding(held.actor(), held.locks(), held.at(), e.at()));
                    }
                    return ends;
                });
            }
        }
        open.forEach(held -> holdings.add(new Holding(held.actor(), held.locks(), held.at(), Long.MAX_VALUE)));
        return holdings;
    }

    /** The actors that held {@code lock} at {@code at}, by their own calls ({@link #holdings}). */
    public static List<String> holdersAt(History history, String lock, long at) {
        return holdings(history).stream().filter(h -> h.locks().contains(lock) && h.from() <= at && at <= h.to())
                .map(Holding::actor).distinct().toList();
    }

    /**
     * Two actors, each refused a name the other held all through its wait, while both waited: each
     * held what the other needed. With waits without a bound, neither would ever have gone on.
     */
    public record WaitCycle(Event first, Event second) {

        @Override
        public String toString() {
            return first.actor() + " waited " + waited(first) + " ms for " + String.join(", ", first.locks())
                    + " while " + second.actor() + " held it, and " + second.actor() + " waited " + waited(second)
                    + " ms for " + String.join(", ", second.locks()) + " while " + first.actor() + " held it";
        }

        private static long waited(Event refusal) {
            return (refusal.at() - refusal.since()) / 1_000_000;
        }
    }

    /** Every pair of refusals, in a story over several names, that make a {@link WaitCycle}. */
    public static List<WaitCycle> waitCycles(History history) {
        List<Holding> holdings = holdings(history);
        List<Event> refusals = history.events().stream()
                .filter(e -> e.kind() == Kind.DENIED && !e.locks().isEmpty()).toList();
        List<WaitCycle> cycles = new ArrayList<>();
        for (int i = 0; i < refusals.size(); i++) {
            for (int j = i + 1; j < refusals.size(); j++) {
                Event a = refusals.get(i);
                Event b = refusals.get(j);
                boolean together = a.since() < b.at() && b.since() < a.at();
                if (!a.actor().equals(b.actor()) && together && heldThrough(holdings, b.actor(), a)
                        && heldThrough(holdings, a.actor(), b)) {
                    cycles.add(new WaitCycle(a, b));
                }
            }
        }
        return cycles;
    }

    /** Whether {@code actor} held a name {@code refusal} asked for from its wait's start to its end. */
    private static boolean heldThrough(List<Holding> holdings, String actor, Event refusal) {
        return holdings.stream().anyMatch(h -> h.actor().equals(actor) && h.from() <= refusal.since()
                && refusal.at() <= h.to() && h.locks().stream().anyMatch(refusal.locks()::contains));
    }
}
