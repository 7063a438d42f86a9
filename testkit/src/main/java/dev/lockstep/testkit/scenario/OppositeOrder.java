package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Overlap;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.NameHoldings;
import dev.lockstep.testkit.history.NameHoldings.WaitCycle;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A needs {@code inventory} then {@code order}, B the same two the other way round, a few rounds
 * each. Taken by hand, one name after the other, both hold their first name when they ask for the
 * second: with a watchdog each waits for what the other will never let go (a deadlock, ended here
 * only by the bounded wait); with a fixed lease the first names expire under them and both end up
 * inside. A lock over both names as one takes them in one order, whatever the caller lists. Judged
 * by {@link Checker#waitCycles} and {@link Checker#overlaps}.
 */
public final class OppositeOrder extends Scenario {

    private static final String INVENTORY = "inventory";
    private static final String ORDER = "order";
    private static final int ROUNDS = 3;
    /** The fixed lease before the watchdog, the watchdog's timeout after: 333 ms between renewals leaves room. */
    private static final Duration LEASE = Duration.ofSeconds(1);
    /** Twice the lease, so a fixed lease surely runs out under a waiter. */
    private static final Duration WAIT = LEASE.multipliedBy(2);
    private static final Duration WORK = Duration.ofMillis(100);
    private static final Duration MEETING = Duration.ofSeconds(10);
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** The scenario as the catalog lists it. */
    public OppositeOrder() {
        super("opposite-order", Guarantee.NO_DEADLOCK,
                "A takes inventory then order, B order then inventory, a few rounds: each holds its first name "
                + "while it waits for the other's, so both wait for good, or both get in once their leases run out.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.leaseOptions(LEASE);
        context.keyColumns(INVENTORY, ORDER);
        Actor a = context.actor("A", options);
        Actor b = context.actor("B", options);
        for (int round = 1; round <= ROUNDS; round++) {
            // By hand, both hold their first name before either asks for its second, and neither lets go
            // before both have heard back: the interleaving the story needs, whatever the machine's pace.
            CyclicBarrier firstNamesHeld = new CyclicBarrier(2);
            CyclicBarrier bothAnswered = new CyclicBarrier(2);
            Future<Boolean> aRound = context.background(
                    () -> play(a, List.of(INVENTORY, ORDER), firstNamesHeld, bothAnswered));
            Future<Boolean> bRound = context.background(
                    () -> play(b, List.of(ORDER, INVENTORY), firstNamesHeld, bothAnswered));
            boolean aDone = context.await(aRound, DEADLINE);
            boolean bDone = context.await(bRound, DEADLINE);

            List<WaitCycle> cycles = NameHoldings.waitCycles(context.history());
            if (!cycles.isEmpty()) {
                return Verdict.violated("Round " + round + ": " + cycles.get(0) + ". With lock() instead of a "
                        + "bounded tryLock, both would still be waiting.");
            }
            List<Overlap> overlaps = Checker.overlaps(context.history());
            if (!overlaps.isEmpty()) {
                return Verdict.violated("Round " + round + ": " + overlaps.get(0) + ": each one's first name "
                        + "expired while it waited for its second, and the other took it.");
            }
            if (!aDone || !bDone) {
                Actor worker = aDone ? a : b;
                long workedMillis = aDone == bDone ? 0 : (context.history().last(worker.name(), Kind.EXIT).at()
                        - context.history().last(worker.name(), Kind.ENTER).at()) / 1_000_000;
                if (workedMillis >= WAIT.toMillis()) {
                    // The other's wait could not outlast that work: the machine, not the lock, kept it out.
                    throw new TooSlowToPlay(worker.name() + "'s " + WORK.toMillis() + " ms of work took " + workedMillis
                            + " ms, as long as the other's wait");
                }
                return Verdict.violated("Round " + round + ": " + (aDone ? b : a).name() + " could not take both "
                        + "names within " + WAIT.toMillis() + " ms while the other worked " + WORK.toMillis() + " ms.");
            }
        }
        return Verdict.held("Every one of " + ROUNDS + " rounds, A and B each took both names in turn, whatever "
                + "order they listed them in: no wait cycle, never both inside.");
    }

    /** One round of {@code actor}: take {@code names} in this order, work under both, let go; true when it worked. */
    private static boolean play(Actor actor, List<String> names, CyclicBarrier firstNamesHeld,
            CyclicBarrier bothAnswered) throws Exception {
        boolean taken = actor.severalNames().tryLockAll(names, WAIT, null, () -> meet(firstNamesHeld, "hold its first name"));
        if (!actor.severalNames().composite()) {
            meet(bothAnswered, "hear back about its second name");
        }
        if (taken) {
            actor.critical(WORK);
        }
        actor.severalNames().unlockAll();
        return taken;
    }

    /** Waits for the other client to {@code what} at {@code barrier}, failing the run if it does not come. */
    private static void meet(CyclicBarrier barrier, String what) {
        try {
            barrier.await(MEETING.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the other client", e);
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("the other client did not " + what + " within " + MEETING.toMillis()
                    + " ms", e);
        }
    }
}
