package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Kind;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import java.util.List;

/**
 * The {@link KnownHistories} of a lock over several names: a thread that holds a name alone and in
 * a group at once, which is where the lock and the model went wrong. Replayed the same way, on the
 * stages with several names.
 */
public enum KnownGroupHistories implements ReplayedHistory {

    /**
     * A thread holds a name alone with a fixed lease and is inside its group's lock call when another
     * client forces the name: the group's outcome says nothing of the single hold, whose lock learns of
     * the loss on its own (multi-lock, seed -6175383731629435587, a model error).
     */
    FORCED_BESIDE_THE_OWNERS_GROUP_CALL(
            Step.ofA1(Kind.LOCK_LEASE, Side.WRITE, 900, WireFault.NONE),
            Step.ofA1(Kind.CONTEND, Side.GROUP, 570, WireFault.NONE),
            new Step(Kind.FORCE_UNLOCK, 1, 0, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 1200, WireFault.NONE)),

    /**
     * A group granted from the background just as another client forces the single name: the group's
     * share of that name is gone with it, so the name's count is not the single hold's plus the
     * group's (multi-lock, seed 4223455610646171897 of {@code lab explore-model --seed 1729}; a
     * defect of the model).
     */
    GROUP_GRANTED_AS_ITS_NAME_IS_FORCED(
            Step.ofA1(Kind.CONTEND, Side.GROUP, 820, WireFault.NONE),
            new Step(Kind.FORCE_UNLOCK, 2, 0, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 300, WireFault.NONE)),

    /**
     * The same thread holds a name alone and in a group, and the group's explicit lease runs out: the
     * single hold's renewals keep the name's field, so the group's share of its count must be taken
     * off at once (multi-lock, seed -3002845080847997070: Redis kept 2 where the client believed 1).
     */
    GROUP_LEASE_RUNS_OUT_ON_A_NAME_HELD_ALONE_TOO(
            Step.ofA1(Kind.TRY_LOCK_WAIT, Side.GROUP, 200, WireFault.NONE),
            Step.ofA1(Kind.TRY_LOCK_WAIT, Side.WRITE, 200, WireFault.NONE),
            Step.ofA1(Kind.EXTEND, Side.GROUP, 600, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 900, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 300, WireFault.NONE)),

    /**
     * The same, with the single hold gone first: the group's extend kept the single hold's longer lease
     * on the shared name, so when the group's own lease runs out its share must still be taken off
     * there, though no other lock holds the name any more (multi-lock, seed -3428354991337476302 of
     * {@code lab explore-model --seed 2718}: Redis kept the field a renewal lease past the loss).
     */
    GROUP_LEASE_RUNS_OUT_AFTER_THE_NAME_HELD_ALONE_IS_LEFT(
            Step.ofA1(Kind.TRY_LOCK_WAIT, Side.GROUP, 200, WireFault.NONE),
            Step.ofA1(Kind.TRY_LOCK_LEASE, Side.WRITE, 3000, WireFault.NONE),
            Step.ofA1(Kind.EXTEND, Side.GROUP, 600, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 900, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 300, WireFault.NONE)),

    /**
     * A group's lock call over a name its owner holds alone too throws, its grant made but unheard:
     * the single hold's renewals keep the group's share of the count on that name, which ends, like a
     * lost re-entry's, with the single hold's last unlock; the model once wanted it gone within a lease
     * (multi-lock, seed 7668902621282919357 of {@code lab explore-model --seed 271828}; a defect of the
     * model, in the runs where Redis granted the call).
     */
    GROUP_GRANT_UNHEARD_ON_A_NAME_HELD_ALONE(
            Step.ofA1(Kind.TRY_LOCK_WAIT, Side.WRITE, 493, WireFault.NONE),
            new Step(Kind.CONTEND, 1, 0, Side.GROUP, 1368, WireFault.NONE),
            Step.ofA1(Kind.LOCK_LEASE, Side.GROUP, 672, WireFault.LOST_REPLY),
            new Step(Kind.STALL, 2, 0, Side.WRITE, 900, WireFault.NONE),
            new Step(Kind.TRY_LOCK_UNIT, 1, 1, Side.WRITE, 365, WireFault.NONE));

    private final List<Step> steps;

    KnownGroupHistories(Step... steps) {
        this.steps = List.of(steps);
    }

    @Override
    public boolean appliesTo(ModelSetup setup) {
        return HistoryNeeds.SEVERAL_NAMES.metBy(setup);
    }

    @Override
    public List<Step> steps() {
        return steps;
    }
}
