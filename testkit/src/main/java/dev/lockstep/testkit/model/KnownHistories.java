package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Kind;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import java.util.List;

/**
 * Short histories that broke a stage once, kept as regression tests: each replays exactly, on every
 * stage it applies to, and must keep every check of the model. They are the shrunk form of what
 * {@code lab explore-model} found. {@link GuardHistories} pin promises that a lock could easily break.
 */
public enum KnownHistories implements ReplayedHistory {

    /** A holder re-enters, the reply is lost (Redis counted 2), one unlock: the lock must be free, not renewed at 1. */
    LOST_REPLY_ON_REENTRY(HistoryNeeds.ANY_LOCK,
            Step.ofA1(Kind.TRY_LOCK, Side.WRITE, 0, WireFault.NONE),
            Step.ofA1(Kind.TRY_LOCK, Side.WRITE, 0, WireFault.LOST_REPLY),
            Step.ofA1(Kind.UNLOCK, Side.WRITE, 0, WireFault.NONE)),

    /** The same on the read side of a read-write lock. */
    LOST_REPLY_ON_READ_REENTRY(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.TRY_LOCK, Side.READ, 0, WireFault.NONE),
            Step.ofA1(Kind.TRY_LOCK, Side.READ, 0, WireFault.LOST_REPLY),
            Step.ofA1(Kind.UNLOCK, Side.READ, 0, WireFault.NONE)),

    /**
     * A holder's sibling thread waits; the holder re-enters while Redis is dark for a moment: its
     * retry must not queue behind its own client's waiter (which waits for the holder).
     */
    REENTRY_BEHIND_OWN_WAITER(HistoryNeeds.ANY_LOCK,
            Step.ofA1(Kind.LOCK, Side.WRITE, 200, WireFault.NONE),
            new Step(Kind.CONTEND, 0, 1, Side.WRITE, 3000, WireFault.NONE),
            Step.ofA1(Kind.TRY_LOCK_WAIT, Side.WRITE, 1200, WireFault.BLIP)),

    /**
     * A tryLock() refused while another holds: once the holder unlocks, the lock must be free for
     * others within one lease, not kept for the refused caller's place in a queue.
     */
    REFUSED_TRY_LOCK_LEAVES_NOTHING_BEHIND(HistoryNeeds.ANY_LOCK,
            Step.ofA1(Kind.TRY_LOCK, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.TRY_LOCK, 1, 0, Side.WRITE, 0, WireFault.NONE)),

    /**
     * A forceUnlock frees the lock while a waiter's call is under way, and the waiter takes it: a live
     * hold, renewed, that another thread of its client then waits for (the model once counted that
     * grant as one the force had ended, and expected its field gone).
     */
    FORCE_UNLOCK_BEFORE_A_WAITERS_GRANT(HistoryNeeds.ANY_LOCK,
            new Step(Kind.TRY_LOCK_WAIT, 1, 1, Side.WRITE, 278, WireFault.NONE),
            new Step(Kind.CONTEND, 0, 1, Side.WRITE, 455, WireFault.NONE),
            new Step(Kind.FORCE_UNLOCK, 2, 0, Side.WRITE, 0, WireFault.NONE),
            Step.ofA1(Kind.LOCK, Side.WRITE, 200, WireFault.NONE)),

    /** The read side's forceUnlock while a writer holds: the writer's hold is not the read lock's to delete. */
    READ_FORCE_UNLOCK_BESIDE_WRITER(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.LOCK, Side.WRITE, 200, WireFault.NONE),
            new Step(Kind.FORCE_UNLOCK, 1, 0, Side.READ, 0, WireFault.NONE)),

    /** The write side's forceUnlock while a reader holds: the reader's hold is not the write lock's to delete. */
    WRITE_FORCE_UNLOCK_BESIDE_READER(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.LOCK, Side.READ, 200, WireFault.NONE),
            new Step(Kind.FORCE_UNLOCK, 1, 0, Side.WRITE, 0, WireFault.NONE)),

    /** A read hold with a fixed lease beside a watchdog reader: it must end with its lease, not be renewed. */
    FIXED_READ_LEASE_BESIDE_RENEWED_READER(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.TRY_LOCK_LEASE, Side.READ, 300, WireFault.NONE),
            new Step(Kind.LOCK, 1, 0, Side.READ, 200, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 1500, WireFault.NONE)),

    /**
     * A writer with a fixed lease takes a read too (renewed by the watchdog): its write must end with
     * its lease, not live on in the hash its read renews.
     */
    FIXED_WRITE_LEASE_BESIDE_OWN_RENEWED_READ(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.TRY_LOCK_LEASE, Side.WRITE, 300, WireFault.NONE),
            Step.ofA1(Kind.LOCK, Side.READ, 200, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 1500, WireFault.NONE)),

    /**
     * The same, after Redis dropped every connection: the lost write's give-back borrows a dead pooled
     * connection and fails, and must be tried again, or the write field lives on in the hash the
     * owner's read renews (found by the explorer, seed 8453281351499711233, shrunk to these steps).
     */
    WRITE_GIVE_BACK_ON_A_DEAD_CONNECTION(HistoryNeeds.READ_SIDE,
            new Step(Kind.DROP_CONNECTIONS, 0, 0, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.TRY_LOCK_LEASE, 1, 1, Side.READ, 779, WireFault.NONE),
            new Step(Kind.TRY_LOCK_LEASE, 1, 0, Side.WRITE, 292, WireFault.NONE),
            new Step(Kind.INTERRUPT, 1, 0, Side.READ, 31, WireFault.NONE),
            new Step(Kind.TRY_LOCK, 1, 1, Side.READ, 0, WireFault.LOST_REPLY),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 632, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 587, WireFault.NONE)),

    /**
     * A writer (renewed by the watchdog) takes a read with a fixed lease: its read must end with its
     * lease, not live on as a read field in the hash its write renews, which would leave the lock in
     * read mode after the write ({@link #WRITERS_FIXED_READ_AMID_REFUSED_CALLS}, cut to its core).
     */
    FIXED_READ_LEASE_BESIDE_OWN_RENEWED_WRITE(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.LOCK, Side.WRITE, 200, WireFault.NONE),
            Step.ofA1(Kind.TRY_LOCK_LEASE, Side.READ, 300, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 1500, WireFault.NONE)),

    /**
     * The same as the explorer found it (seed 424242, its fourth history, 4308182121463989136, drawn
     * before extend was a step, so that seed now draws another history; shrunk from 40 steps to these
     * 7): after a lost grant and dropped connections, B2 writes and takes a read for 424 ms; the
     * refused calls of others take past that lease, and Redis still kept B2's read field, beside its
     * write, a slack after the lease.
     */
    WRITERS_FIXED_READ_AMID_REFUSED_CALLS(HistoryNeeds.READ_SIDE,
            new Step(Kind.LOCK, 2, 0, Side.WRITE, 200, WireFault.LOST_REPLY),
            new Step(Kind.DROP_CONNECTIONS, 0, 0, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.CONTEND, 1, 1, Side.WRITE, 1370, WireFault.NONE),
            new Step(Kind.TRY_LOCK_LEASE, 1, 1, Side.READ, 424, WireFault.NONE),
            new Step(Kind.TRY_LOCK_WAIT, 0, 0, Side.READ, 586, WireFault.NONE),
            new Step(Kind.LOCK, 0, 1, Side.WRITE, 200, WireFault.NONE),
            new Step(Kind.LOCK, 2, 1, Side.WRITE, 200, WireFault.LOST_REPLY)),

    /**
     * A refused extend (a negative lease) whose call waited for a renewal that never came, while the
     * hold's fixed lease ran out: the lock rightly holds nothing after it (read-write lock, seed
     * 1481431107980107976, found by a mutant hunt; a defect of the model).
     */
    REFUSED_EXTEND_AS_A_FIXED_LEASE_RUNS_OUT(HistoryNeeds.ANY_LOCK,
            Step.ofA1(Kind.TRY_LOCK_LEASE, Side.WRITE, 350, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 100, WireFault.NONE),
            Step.ofA1(Kind.EXTEND, Side.WRITE, -2, WireFault.RENEWAL_HELD)),

    /**
     * A reader re-enters with a longer fixed lease, the first lease runs out, one read is unlocked:
     * the read left lasts as the client believes, although another reader's renewal sweeps out
     * readers whose reads all ran out (read-write lock, seed 887277541832522629).
     */
    READ_REENTERED_WITH_A_LONGER_LEASE(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.LOCK_LEASE, Side.READ, 300, WireFault.NONE),
            new Step(Kind.LOCK, 1, 0, Side.READ, 200, WireFault.NONE),
            Step.ofA1(Kind.LOCK_LEASE, Side.READ, 2000, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 400, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.READ, 0, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 300, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.READ, 0, WireFault.NONE)),

    /**
     * A first hold taken with a fixed lease right after a lock call whose reply was lost, then forced:
     * the holder may believe in its lease until it ends (fair lock, seed -8703172003159120176 of
     * {@code lab explore-model --seed 6174}; a defect of the model, which took the hold for a renewed one).
     */
    FIXED_LEASE_AFTER_A_LOST_REPLY_THEN_FORCED(HistoryNeeds.ANY_LOCK,
            Step.ofA1(Kind.TRY_LOCK_LEASE, Side.WRITE, 520, WireFault.LOST_REPLY),
            Step.ofA1(Kind.TRY_LOCK_LEASE, Side.WRITE, 1300, WireFault.NONE),
            new Step(Kind.FORCE_UNLOCK, 1, 0, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 300, WireFault.NONE)),

    /**
     * A writer with an explicit lease takes a read of its own and leaves it: the read's lease, longer
     * than what was left of the write's, must not stay on the hash after it (read-write-lock, seed
     * -1671737531122342638 of {@code lab explore-model --seed 8086}: the key lived 597 ms more where the
     * write's lease ended in 545 ms).
     */
    WRITERS_READ_LEAVES_THE_WRITE_LEASE(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.LOCK, Side.WRITE, 0, WireFault.NONE),
            Step.ofA1(Kind.EXTEND, Side.WRITE, 1200, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 650, WireFault.NONE),
            Step.ofA1(Kind.TRY_LOCK, Side.READ, 0, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.READ, 0, WireFault.NONE)),

    /**
     * A renewed hold re-entered with a fixed lease longer than the stall that follows: the key outlives
     * the stall and the hold goes on, which the model once called a loss the lock failed to tell (v5,
     * seed 4905302949592366891 of {@code lab explore-model --seed 90210}; a defect of the model).
     */
    FIXED_REENTRY_OUTLASTS_A_STALL(HistoryNeeds.ANY_LOCK,
            Step.ofA1(Kind.TRY_LOCK_UNIT, Side.WRITE, 450, WireFault.NONE),
            Step.ofA1(Kind.TRY_LOCK_LEASE, Side.WRITE, 1258, WireFault.NONE),
            new Step(Kind.STALL, 0, 0, Side.WRITE, 900, WireFault.NONE));

    private final HistoryNeeds needs;
    private final List<Step> steps;

    KnownHistories(HistoryNeeds needs, Step... steps) {
        this.needs = needs;
        this.steps = List.of(steps);
    }

    @Override
    public boolean appliesTo(ModelSetup setup) {
        return needs.metBy(setup);
    }

    @Override
    public List<Step> steps() {
        return steps;
    }
}
