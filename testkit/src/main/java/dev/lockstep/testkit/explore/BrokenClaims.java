package dev.lockstep.testkit.explore;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks an explored schedule's history against the guarantees a stage claims: owner-only release,
 * re-entry, no overlap under renewal, and a waiter never starved by a lock nobody held.
 */
final class BrokenClaims {

    private final Set<Guarantee> claims;
    private final Duration lease;
    private final Duration livenessSlack;

    /**
     * A check of {@code claims} for clients that take {@code lease}-long leases; a free lock must be
     * taken by a waiter within {@code livenessSlack}.
     */
    BrokenClaims(Set<Guarantee> claims, Duration lease, Duration livenessSlack) {
        this.claims = claims;
        this.lease = lease;
        this.livenessSlack = livenessSlack;
    }

    /** The first claim {@code history} breaks, with what broke it; empty when every claim held. */
    Optional<String> first(History history) {
        if (claims.contains(Guarantee.OWNER_ONLY_RELEASE)) {
            List<Checker.Intrusion> intrusions = Checker.intrusions(history);
            if (!intrusions.isEmpty()) {
                return Optional.of("OWNER_ONLY_RELEASE: " + intrusions.get(0));
            }
        }
        if (claims.contains(Guarantee.REENTRANT)) {
            Optional<Event> failed = history.events().stream()
                    .filter(e -> e.kind() == Kind.NOTE && e.detail().contains("FAILED")).findFirst();
            if (failed.isPresent()) {
                return Optional.of("REENTRANT: " + failed.get().actor() + " could not re-take its lock at "
                        + failed.get().millis() + " ms");
            }
        }
        if (claims.contains(Guarantee.LEASE_RENEWAL)) {
            List<Checker.Overlap> overlaps = Checker.overlaps(history);
            if (!overlaps.isEmpty()) {
                return Optional.of("LEASE_RENEWAL: " + overlaps.get(0));
            }
        }
        if (claims.contains(Guarantee.LIVENESS_AFTER_CRASH)) {
            return starvedWaiter(history).map(s -> "LIVENESS_AFTER_CRASH: " + s);
        }
        return Optional.empty();
    }

    /**
     * A waiter that gave up although the lock was free for longer than the liveness slack
     * during its wait. "Busy" counts every live hold until its unlock began, and a crashed hold
     * until its lease ran out.
     */
    private Optional<String> starvedWaiter(History history) {
        List<long[]> busy = busyIntervals(history);
        for (Event denied : history.events()) {
            if (denied.kind() != Kind.DENIED) {
                continue;
            }
            long cursor = denied.since();
            for (long[] hold : busy) {
                if (hold[1] <= cursor || hold[0] >= denied.at()) {
                    continue;
                }
                if (hold[0] - cursor > livenessSlack.toNanos()) {
                    return Optional.of(gap(denied, cursor, hold[0]));
                }
                cursor = Math.max(cursor, hold[1]);
            }
            if (denied.at() - cursor > livenessSlack.toNanos()) {
                return Optional.of(gap(denied, cursor, denied.at()));
            }
        }
        return Optional.empty();
    }

    private static String gap(Event denied, long from, long to) {
        return denied.actor() + " waited and gave up at " + denied.millis() + " ms though nobody held the lock from "
                + from / 1_000_000 + " ms to " + to / 1_000_000 + " ms";
    }

    private List<long[]> busyIntervals(History history) {
        List<Event> events = history.events();
        long end = events.isEmpty() ? 0 : events.get(events.size() - 1).at();
        List<long[]> busy = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            Event acquired = events.get(i);
            if (acquired.kind() != Kind.ACQUIRED || acquired.depth() != 1) {
                continue;
            }
            long until = end;
            for (Event later : events.subList(i + 1, events.size())) {
                if (!later.actor().equals(acquired.actor())) {
                    continue;
                }
                if ((later.kind() == Kind.UNLOCK && later.depth() == 0) || later.kind() == Kind.UNLOCK_REFUSED) {
                    until = later.at();
                    break;
                }
                if (later.kind() == Kind.CRASH) {
                    // A crash stops renewal too: the last lease runs out at most one lease after it.
                    until = later.at() + lease.toNanos();
                    break;
                }
            }
            busy.add(new long[] {acquired.at(), until});
        }
        busy.sort(Comparator.comparingLong(h -> h[0]));
        return busy;
    }
}
