package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Kind;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import java.util.List;

/**
 * Short histories that pin what a handle, an extend and a group promise: each passed on the first
 * run that drew it, and each was played on a copy of the library with its defect put back, to be
 * sure the model notices. Replayed like {@link KnownHistories}, on every stage they apply to.
 */
public enum GuardHistories implements ReplayedHistory {

    /** A handle's extend refused at the call (under the 10 ms minimum) leaves the handle valid and its hold as it was. */
    REFUSED_EXTEND_KEEPS_THE_HANDLE_VALID(HistoryNeeds.ANY_LOCK,
            new Step(Kind.TRY_ACQUIRE, 0, ModelSetup.THREADS, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.HOLD_EXTEND, 0, ModelSetup.THREADS, Side.WRITE, 5, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 700, WireFault.NONE)),

    /** A dropped handle whose onLost listener mentions it is collected, and its cleaner frees the lock for another. */
    DROPPED_HANDLE_IS_COLLECTED_AND_RELEASED(HistoryNeeds.ANY_LOCK,
            new Step(Kind.TRY_ACQUIRE, 0, ModelSetup.THREADS, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.HOLD_DROP, 0, ModelSetup.THREADS, Side.WRITE, 0, WireFault.NONE),
            new Step(Kind.TRY_LOCK_WAIT, 1, 0, Side.WRITE, 1000, WireFault.NONE)),

    /** A thread's hold extended shorter, then longer, ends with its last lease: no renewal brings back an older one. */
    EXTEND_SHORTER_THEN_LONGER(HistoryNeeds.ANY_LOCK,
            Step.ofA1(Kind.LOCK, Side.WRITE, 200, WireFault.NONE),
            Step.ofA1(Kind.EXTEND, Side.WRITE, 150, WireFault.NONE),
            Step.ofA1(Kind.EXTEND, Side.WRITE, 900, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 300, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 700, WireFault.NONE)),

    /**
     * A thread extends its hold while the watchdog holds a renewal it decided to send: the renewal
     * may not land after the extend, cutting the key to the watchdog's lease under the holder.
     */
    RENEWAL_ON_ITS_WAY_DURING_AN_EXTEND(HistoryNeeds.ANY_LOCK,
            Step.ofA1(Kind.LOCK, Side.WRITE, 200, WireFault.NONE),
            Step.ofA1(Kind.EXTEND, Side.WRITE, 1200, WireFault.RENEWAL_HELD),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 300, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.WRITE, 0, WireFault.NONE)),

    /** A read hold extended shorter is shortened in Redis too: the hash keeps no longer lease than its readers'. */
    READ_EXTENDED_SHORTER(HistoryNeeds.READ_SIDE,
            Step.ofA1(Kind.LOCK, Side.READ, 200, WireFault.NONE),
            Step.ofA1(Kind.EXTEND, Side.READ, 150, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 100, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 700, WireFault.NONE)),

    /**
     * One thread holds a name alone and in a group at once; the group ends: the single hold must
     * stay, renewed, and its count in Redis be the single's again.
     */
    ONE_NAME_ALONE_AND_IN_A_GROUP(HistoryNeeds.SEVERAL_NAMES,
            Step.ofA1(Kind.LOCK, Side.WRITE, 200, WireFault.NONE),
            Step.ofA1(Kind.LOCK, Side.GROUP, 200, WireFault.NONE),
            new Step(Kind.TRY_LOCK, 1, 0, Side.WRITE, 0, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.GROUP, 0, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 900, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.WRITE, 0, WireFault.NONE)),

    /**
     * One thread holds a name alone, with a lease longer than the watchdog's, and in a group: the
     * group's renewals may not cut the name to the group's lease under the single hold. The single
     * lease outlasts the group's hold by far, however slowly a busy machine plays the steps: a group
     * renewal near its end would rightly keep the name a little past it (a CI run, at 1200 ms).
     */
    A_LONGER_LEASE_UNDER_A_GROUP(HistoryNeeds.SEVERAL_NAMES,
            Step.ofA1(Kind.LOCK_LEASE, Side.WRITE, 2500, WireFault.NONE),
            Step.ofA1(Kind.LOCK, Side.GROUP, 200, WireFault.NONE),
            new Step(Kind.WAIT, 0, 0, Side.WRITE, 300, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.GROUP, 0, WireFault.NONE),
            Step.ofA1(Kind.UNLOCK, Side.WRITE, 0, WireFault.NONE));

    private final HistoryNeeds needs;
    private final List<Step> steps;

    GuardHistories(HistoryNeeds needs, Step... steps) {
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
