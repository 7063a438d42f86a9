package dev.lockstep.testkit.soak;

import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Section;
import dev.lockstep.testkit.soak.SoakEvent.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What one stage's soak showed, judged from the events its clients printed: overlapping critical
 * sections (must be none), holds still in Redis a lease after every client stopped (must be none),
 * keys found without a TTL (must be none), and how long a released lock stayed free while someone
 * waited for it.
 *
 * @param stage          the stage
 * @param settings       how it ran
 * @param faultCounts    faults injected, by kind
 * @param acquisitions   lock calls that took the lock
 * @param errors         lock calls that failed (Redis did not answer in time)
 * @param gaveUp         waits that ended without the lock
 * @param losses         holds the clients were told they lost
 * @param reentries      re-entries granted to a holder (each ended by a second unlock)
 * @param forced         {@code forceUnlock} calls by workers
 * @param interrupted    waits ended by a sibling thread's interrupt
 * @param overlaps       two actors inside the same lock at once, described
 * @param stuck          lock keys left a lease after every client stopped, described
 * @param keysWithoutTtl lock keys seen without a TTL, over every sample
 * @param wakeUps        for each release some other actor was waiting on: how long until the next acquisition
 * @param quietWakeUps   the wake-ups during which no fault was being injected
 * @param worstWakeUps   the slowest wake-ups, described with the fault that was active, if any
 */
public record SoakVerdict(Stage stage, Soak.Settings settings, Map<Fault, Integer> faultCounts, int acquisitions,
                          int errors, int gaveUp, int losses, int reentries, int forced, int interrupted,
                          List<String> overlaps, List<String> stuck, long keysWithoutTtl,
                          List<Long> wakeUps, List<Long> quietWakeUps, List<String> worstWakeUps) {

    /** A fault as injected: what, and from when to when (nanoTime). */
    record Injected(Fault fault, long from, long to, String what) {
    }

    /** Whether the soak kept every claim: no overlap, no stuck hold, no key without a TTL. */
    public boolean passed() {
        return overlaps.isEmpty() && stuck.isEmpty() && keysWithoutTtl == 0;
    }

    /** Faults injected in all. */
    public int faults() {
        return faultCounts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The {@code q} quantile of the wake-ups, in ms (0 when there were none). */
    public long wakeUpMillis(double q) {
        return quantileMillis(wakeUps, q);
    }

    /** The slowest wake-up during which no fault was being injected, in ms. */
    public long worstQuietWakeUpMillis() {
        return quantileMillis(quietWakeUps, 1.0);
    }

    private static long quantileMillis(List<Long> nanos, double q) {
        if (nanos.isEmpty()) {
            return 0;
        }
        List<Long> sorted = nanos.stream().sorted().toList();
        return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size()))) / 1_000_000;
    }

    static SoakVerdict judge(Stage stage, Soak.Settings settings, List<SoakEvent> events, List<Injected> faults,
                             Map<Fault, Integer> faultCounts, List<String> stuck, long keysWithoutTtl) {
        events.sort(Comparator.comparingLong(SoakEvent::at));
        int acquisitions = (int) events.stream().filter(e -> e.kind() == Kind.ACQUIRED).count();
        int errors = (int) events.stream().filter(e -> e.kind() == Kind.ERROR).count();
        int gaveUp = (int) events.stream().filter(e -> e.kind() == Kind.DENIED).count();
        int losses = (int) events.stream().filter(e -> e.kind() == Kind.LOST).count();
        int reentries = (int) events.stream().filter(e -> e.kind() == Kind.REENTERED && e.detail().isEmpty()).count();
        int forced = (int) events.stream().filter(e -> e.kind() == Kind.FORCED).count();
        int interrupted = (int) events.stream().filter(e -> e.kind() == Kind.INTERRUPTED).count();
        List<String> overlaps = new ArrayList<>();
        List<Slow> slow = new ArrayList<>();
        Map<String, List<SoakEvent>> byLock = events.stream().filter(e -> !e.lock().equals("-"))
                .collect(Collectors.groupingBy(SoakEvent::lock));
        List<SoakEvent> crashes = events.stream().filter(e -> e.kind() == Kind.CRASHED).toList();
        byLock.forEach((lock, onLock) -> {
            overlaps.addAll(overlaps(lock, onLock, crashes, settings.lease().toNanos()));
            wakeUps(lock, onLock, faults, slow);
        });
        List<String> worst = slow.stream().sorted(Comparator.comparingLong(Slow::nanos).reversed()).limit(5)
                .map(Slow::toString).toList();
        List<Long> wakeUps = slow.stream().map(Slow::nanos).toList();
        List<Long> quiet = slow.stream().filter(Slow::quiet).map(Slow::nanos).toList();
        return new SoakVerdict(stage, settings, faultCounts, acquisitions, errors, gaveUp, losses, reentries, forced,
                interrupted, overlaps, stuck,
                keysWithoutTtl, wakeUps, quiet, worst);
    }

    /**
     * Critical sections, ENTER to EXIT (or the client's crash), of different actors that overlap. A
     * {@code forceUnlock} (one that deleted, or whose reply was lost) deletes a hold its holder
     * learns of at its next renewal: the holder's section is excused from the moment the force was
     * sent until one lease after its reply, and counts again if the holder is still inside then.
     * Any hold may be the one deleted whose lock call began before the force's reply came.
     */
    private static List<String> overlaps(String lock, List<SoakEvent> onLock, List<SoakEvent> crashes, long lease) {
        // asked: when the worker's lock call began; its script ran between then and the grant's reply.
        record Hold(Section section, long asked) {
        }
        List<Hold> holds = new ArrayList<>();
        Map<String, Long> open = new HashMap<>();
        Map<String, Long> asked = new HashMap<>();
        for (SoakEvent e : onLock) {
            if (e.kind() == Kind.ACQUIRED) {
                asked.put(e.actor(), e.since());
            } else if (e.kind() == Kind.ENTER) {
                open.put(e.actor(), e.at());
            } else if (e.kind() == Kind.EXIT && open.containsKey(e.actor())) {
                long from = open.remove(e.actor());
                holds.add(new Hold(new Section(e.actor(), from, e.at()), asked.getOrDefault(e.actor(), from)));
            }
        }
        open.forEach((actor, from) -> {
            long crashedAt = crashes.stream().filter(c -> actor.startsWith(c.actor() + "/") && c.at() > from)
                    .mapToLong(SoakEvent::at).min().orElse(Long.MAX_VALUE);
            holds.add(new Hold(new Section(actor, from, crashedAt), asked.getOrDefault(actor, from)));
        });
        for (SoakEvent forced : onLock) {
            if (forced.kind() != Kind.FORCED || forced.detail().equals(SoakEvent.NOTHING_FORCED)) {
                continue;
            }
            List<Hold> cut = new ArrayList<>();
            for (Hold hold : holds) {
                Section s = hold.section();
                if (hold.asked() < forced.at() && s.to() > forced.since()) {
                    if (s.from() < forced.since()) {
                        cut.add(new Hold(new Section(s.actor(), s.from(), forced.since(), s.note()), hold.asked()));
                    }
                    if (s.to() > forced.at() + lease) {
                        cut.add(new Hold(new Section(s.actor(), Math.max(s.from(), forced.at() + lease), s.to(),
                                (s.note().isEmpty() ? "" : s.note() + " ") + "(not told of " + forced.actor() + "'s forceUnlock)"),
                                hold.asked()));
                    }
                } else {
                    cut.add(hold);
                }
            }
            holds.clear();
            holds.addAll(cut);
        }
        List<Section> sections = holds.stream().map(Hold::section).sorted(Comparator.comparingLong(Section::from)).toList();
        // The first's end less the second's start: how long they were both inside, or the first's tail past a second inside it.
        return Checker.overlaps(sections).stream().map(o -> lock + ": " + o.first().label() + " and " + o.second().label()
                + " both inside for " + (o.first().to() - o.second().from()) / 1_000_000 + " ms").toList();
    }

    /** For each release while another actor was waiting, the time until the next acquisition. */
    private static void wakeUps(String lock, List<SoakEvent> onLock, List<Injected> faults, List<Slow> slow) {
        for (int i = 0; i < onLock.size(); i++) {
            SoakEvent release = onLock.get(i);
            if (release.kind() != Kind.UNLOCKED) {
                continue;
            }
            long releasedAt = release.since();
            boolean someoneWaiting = onLock.stream().anyMatch(e -> !e.actor().equals(release.actor())
                    && (e.kind() == Kind.ACQUIRED || e.kind() == Kind.DENIED || e.kind() == Kind.ERROR)
                    && e.since() < releasedAt && e.at() > release.at());
            if (!someoneWaiting) {
                continue;
            }
            Optional<SoakEvent> next = onLock.subList(i + 1, onLock.size()).stream()
                    .filter(e -> e.kind() == Kind.ACQUIRED).findFirst();
            if (next.isEmpty()) {
                continue;
            }
            long lag = next.get().at() - releasedAt;
            String during = faults.stream().filter(f -> f.from() < next.get().at() && f.to() > releasedAt)
                    .map(f -> "during " + f.fault().label() + " (" + f.what() + ")")
                    .collect(Collectors.joining(", "));
            boolean quiet = during.isEmpty();
            if (quiet) {
                // Some faults outlast their injection (a half-open connection stays until it is noticed).
                during = faults.stream().filter(f -> f.to() <= releasedAt).reduce((first, second) -> second)
                        .map(f -> (releasedAt - f.to()) / 1_000_000 + " ms after " + f.fault().label()
                                + " (" + f.what() + ")")
                        .orElse("no fault before it");
            }
            slow.add(new Slow(lock, release.actor(), next.get().actor(), lag, quiet, during));
        }
    }

    private record Slow(String lock, String releaser, String taker, long nanos, boolean quiet, String during) {

        @Override
        public String toString() {
            return nanos / 1_000_000 + " ms on " + lock + ", " + releaser + " to " + taker + ", " + during;
        }
    }
}
