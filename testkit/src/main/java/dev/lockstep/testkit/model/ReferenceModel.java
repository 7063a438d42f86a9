package dev.lockstep.testkit.model;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.model.Step.Side;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The reference model of one lock: per owner (a client's thread) and side, the hold count it may
 * have, updated from each call's outcome, and the checks that what the client believes is what
 * Redis stores.
 *
 * <p><b>Outcomes.</b> A call is granted, refused, or throws with its outcome unknown (a lost reply:
 * Redis may have run it). Granted moves the count up (down for an unlock); refused changes nothing
 * (an unlock refused means the owner held nothing: the count is 0). A call that throws keeps every
 * possible outcome, so the owner's count is a <em>set</em> ({@link OwnerModel}): a lock call may
 * have been granted; an unlock may have ended one hold, none, or (as {@code DistLock.unlock}
 * documents: "the lease still ends the hold") the whole hold, whose count Redis then keeps for at
 * most one lease. A lock call that threw may leave a grant its owner never heard of: while the
 * owner holds, Redis may count it too, but the owner's last unlock must end it
 * ({@link Guarantee#RETRY_SAFE}). The owner is uncertain
 * while the set has more than one value, and none of its counts is checked then. Its next call that
 * returns settles it: the count the lock then reports ({@code holdCount()}) must be one the set
 * allows, and from then on the lock and Redis must both say exactly that. This is how a lost reply
 * on a re-entry is caught: the set is {1, 2}, the unlock settles it at 0, and Redis must then store
 * nothing, where the defect leaves a count of 1 that renewals keep forever.
 *
 * <p><b>Losses.</b> A hold also ends without its owner's call; {@link Losses} keeps those.
 *
 * <p>After every step the model is held to the rules in {@code ModelRules}.
 */
final class ReferenceModel {

    private final ModelSetup setup;
    private final Function<Integer, String[]> clientFields;
    private final OwnerModel[][][] owners = new OwnerModel[ModelSetup.CLIENTS][ModelSetup.OWNERS][ModelSetup.SIDES];
    private final Departures departures = new Departures();
    private final Losses losses = new Losses(this);

    /** A model of a lock set up as {@code setup}; {@code clientFields} gives client slot c's owner fields, by thread. */
    ReferenceModel(ModelSetup setup, Function<Integer, String[]> clientFields) {
        this.setup = setup;
        this.clientFields = clientFields;
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : Side.values()) {
                    owners[c][t][side.ordinal()] = new OwnerModel();
                }
            }
        }
    }

    OwnerModel owner(int client, int thread, Side side) {
        return owners[client][thread][side.ordinal()];
    }

    /** The Redis field that stores this owner's count on {@code side}. */
    String field(int client, int thread, Side side) {
        String base = clientFields.apply(client)[thread];
        if (side == Side.GROUP) {
            return base + RedisView.GROUP_SUFFIX;
        }
        return setup.readWrite() && side == Side.WRITE ? base + ":write" : base;
    }

    /** One lease and the slack a loaded machine needs: the bound on anything "within one lease". */
    long leaseNanos() {
        return setup.lease().plus(ModelSetup.SLACK).toNanos();
    }

    /**
     * Whether another owner than this one may hold a side that excludes {@code side}: the write side
     * and the group exclude everything (the group covers the modelled name), the read side only those.
     */
    Optional<String> otherHolder(int client, int thread, Side side) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                if (c == client && t == thread) {
                    continue;
                }
                if (owner(c, t, Side.WRITE).mayHold() || owner(c, t, Side.GROUP).mayHold()
                        || (side != Side.READ && owner(c, t, Side.READ).mayHold())) {
                    return Optional.of(Step.ownerName(c, t));
                }
            }
        }
        return Optional.empty();
    }

    /** The owners of client slot {@code client} (every slot for -1) that may hold a side: {client, thread, side}. */
    List<int[]> holders(int client) {
        List<int[]> found = new ArrayList<>();
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : sides()) {
                    if ((client < 0 || client == c) && owner(c, t, side).mayHold()) {
                        found.add(new int[] {c, t, side.ordinal()});
                    }
                }
            }
        }
        return found;
    }

    /**
     * A call of this owner returned (granted, refused or, when {@code released}, unlocked), and the
     * lock now reports {@code holdCount}: the count must be one the model allows, and becomes the only
     * one. A count of 0 that no unlock explains is a loss after a fault, excused for one lease; so is
     * a count of 1 from a grant after such a loss.
     */
    Optional<Violation> settle(int client, int thread, Side side, int holdCount, boolean released, long now) {
        OwnerModel owner = owner(client, thread, side);
        String name = Step.ownerName(client, thread) + sideName(side);
        boolean faulted = owner.shakenUntil > now || owner.exposedUntil > now;
        // A hold lost unannounced (after a fault, or a lease mixed of fixed and renewed) may be followed by a fresh one.
        boolean lostThenGranted = !released && holdCount == 1 && (faulted || owner.mixedLease);
        boolean excused = owner.beliefUnknown || (faulted && holdCount == 0 && !released)
                || (owner.unlockThrew && holdCount == 0) || lostThenGranted;
        owner.beliefUnknown = false;
        if (!owner.allows(holdCount) && !excused) {
            return Optional.of(new Violation("model-vs-lock", name + " holdCount() is " + holdCount + " after its call returned, but the model allows "
                    + owner));
        }
        if (excused && holdCount == 0 && owner.mayHold()) {
            departures.depart(field(client, thread, side), now + leaseNanos());
        }
        owner.settle(holdCount);
        return Optional.empty();
    }

    /** How holds end without their owners' calls. */
    Losses losses() {
        return losses;
    }

    /** The fields that must leave Redis, and by when. */
    Departures departures() {
        return departures;
    }

    /** The sides this lock has. */
    List<Side> sides() {
        return setup.readWrite() ? List.of(Side.WRITE, Side.READ)
                : setup.severalNames() ? List.of(Side.WRITE, Side.GROUP) : List.of(Side.WRITE);
    }

    static String sideName(Side side) {
        return side == Side.READ ? " read" : side == Side.GROUP ? " group" : "";
    }
}
