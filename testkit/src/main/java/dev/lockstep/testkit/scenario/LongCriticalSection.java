package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Overlap;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.ProtectedCounter;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.Stalls;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;

/**
 * A's work lasts three leases while B waits. With a fixed lease the lock expires under A, B
 * enters beside it, and one of their counter increments is lost. Judged by
 * {@link Checker#overlaps} and the {@link ProtectedCounter}.
 */
public final class LongCriticalSection extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration LEASE = Duration.ofMillis(300);
    private static final Duration A_WORK = LEASE.multipliedBy(3);
    private static final Duration B_WORK = Duration.ofMillis(100);
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    /** How late a renewal every 100 ms may come before a 300 ms lease, less the drift allowance, runs out. */
    private static final Duration RENEWAL_MARGIN = Duration.ofMillis(180);

    /** The scenario as the catalog lists it. */
    public LongCriticalSection() {
        super("long-critical-section", Guarantee.LEASE_RENEWAL,
                "A's work lasts three leases; the lock expires under it, "
                + "B enters beside A, and one counter update is lost.");
    }

    /** Renewals every 100 ms keep a 300 ms lease alive: one late by some 180 ms lets the contender in. */
    @Override
    public boolean timed() {
        return true;
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        Stalls.watch();
        LockOptions options = Stage.leaseOptions(LEASE);
        Actor a = context.actor("A", options);
        Actor b = context.actor("B", options);
        ProtectedCounter counter = new ProtectedCounter();
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        Future<Void> bTurn = context.background(() -> {
            if (b.tryLock(LOCK, DEADLINE, null)) {
                b.critical(B_WORK, counter);
                b.unlock(LOCK);
            }
            return null;
        });
        a.critical(A_WORK, counter);
        a.unlock(LOCK);
        context.await(bTurn, DEADLINE);

        List<Overlap> overlaps = Checker.overlaps(context.history());
        long lost = counter.lostUpdates();
        if (!overlaps.isEmpty() || lost > 0) {
            requireRenewalsHadTheirTurn(context.history());
            return Verdict.violated((overlaps.isEmpty() ? "no overlap" : overlaps.get(0).toString())
                    + " after A's " + LEASE.toMillis() + " ms lease ran out mid-work; the counter lost "
                    + lost + " of 2 updates.");
        }
        return Verdict.held("A kept the lock for all " + A_WORK.toMillis() + " ms of work; B entered after it, "
                + "and both counter updates count.");
    }

    /**
     * A watchdog told A its lease was lost, while this JVM's threads waited longer than a renewal's
     * margin to run ({@link Stalls}): the machine, busy with other work, starved the renewals, and
     * the lock said so. On a machine that lets the watchdog run, a lock that renews keeps A's lease.
     */
    private static void requireRenewalsHadTheirTurn(History history) {
        Optional<Event> told = history.first("A", Kind.LOST);
        if (told.isEmpty()) {
            return;
        }
        long stalled = Stalls.nanosBetween(history.nanoTimeOf(history.last("A", Kind.ACQUIRED).at()),
                history.nanoTimeOf(told.get().at()));
        if (stalled > RENEWAL_MARGIN.toNanos()) {
            throw new TooSlowToPlay("A was told its lease was lost after this JVM's threads waited "
                    + stalled / 1_000_000 + " ms to run: the machine starved the renewals");
        }
    }
}
