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
 * <p><b>Losses.</b> A hold also ends without its owner's call: a {@code forceUnlock}, a stall past
 * the lease, a closed or crashed client, a fixed lease that ran out, a loss signal. The model then
 * settles the owner at 0 and gives its Redis field a deadline: gone within one lease (plus a slack
 * for a loaded machine), or the lock is stuck. A fault on a client's wire (a lost reply, a blip)
 * may cost its other holds their renewals; those owners are <em>shaken</em> for one lease, and
 * their counts are checked again only after it.
 *
 * <p>After every step the model is held to the rules in {@code ModelRules}.
 */
final class ReferenceModel {

    private final ModelSetup setup;
    private final Function<Integer, String[]> clientFields;
    private final OwnerModel[][][] owners = new OwnerModel[ModelSetup.CLIENTS][ModelSetup.OWNERS][ModelSetup.SIDES];
    private final Departures departures = new Departures();

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
     * Redis may have granted a call the owner was told was refused: a re-entry's extra count must end
     * with the owner's last unlock, a first hold's field must run out within one lease, unrenewed. A
     * group's share on the modelled name, which the owner's single hold renews, ends as a re-entry's
     * does, with the single hold's last unlock.
     */
    void unheardGrant(int client, int thread, Side side, long now) {
        OwnerModel owner = owner(client, thread, side);
        if (owner.surelyHolds()) {
            owner.unheardGrants++;
        } else {
            departures.depart(field(client, thread, side), now + leaseNanos());
            OwnerModel single = owner(client, thread, Side.WRITE);
            if (side == Side.GROUP && single.surelyHolds()) {
                single.unheardGrants++;
            }
        }
    }

    /** The hold is gone without its owner's call: count 0, and its field must leave Redis within {@code within}. */
    void lost(int client, int thread, Side side, long now, long within) {
        OwnerModel owner = owner(client, thread, side);
        if (owner.mayHold()) {
            // An explicit lease longer than the bound keeps the field in Redis until it runs out.
            long end = Math.max(now + within, owner.leaseEndBound + ModelSetup.SLACK.toNanos());
            departures.depart(field(client, thread, side), end);
        }
        owner.lostAt = now;
        owner.lossSignalled = false;
        owner.settle(0);
    }

    /** Every hold of client slot {@code client} is gone (closed, crashed, stalled past its lease). */
    void clientLost(int client, long now, long within) {
        for (int t = 0; t < ModelSetup.OWNERS; t++) {
            for (Side side : Side.values()) {
                lost(client, t, side, now, within);
            }
        }
    }

    /** A fault hit client slot {@code client}'s wire: its holds may be lost unannounced for one lease. */
    void shake(int client, long now) {
        shake(client, -1, now);
    }

    /**
     * A fault on thread {@code caller}'s call hit client slot {@code client}'s wire: the other owners'
     * renewals may have failed. The caller's own doubt is in its set of counts, and its next call settles it.
     */
    void shake(int client, int caller, long now) {
        for (int t = 0; t < ModelSetup.OWNERS; t++) {
            if (t == caller) {
                continue;
            }
            for (Side side : Side.values()) {
                owner(client, t, side).shakenUntil = now + leaseNanos();
            }
        }
    }

    /** The lock told {@code thread} at {@code toldAt} that its hold was lost: the field must be gone a lease later. */
    void told(int client, int thread, Side side, long toldAt) {
        OwnerModel owner = owner(client, thread, side);
        if (toldAt > owner.grantedAt && owner.mayHold()) {
            lost(client, thread, side, toldAt, leaseNanos());
            owner.lossSignalled = true;
        }
    }

    /** Fixed leases that ran out end their holds; the lock may not know yet, Redis must drop the field. */
    void advance(long now) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : Side.values()) {
                    OwnerModel owner = owner(c, t, side);
                    if (owner.fixedLeaseEnd > 0 && now > owner.fixedLeaseEnd && !owner.mixedLease) {
                        long end = owner.fixedLeaseEnd;
                        lost(c, t, side, end, ModelSetup.SLACK.toNanos());
                        owner.beliefUnknown = true;
                    }
                }
            }
        }
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

    /**
     * By when (nanoTime) {@code victims} ({client, thread, side}), whose holds were just taken away,
     * must have been told: within one lease, or (a hold with an explicit lease, which no renewal
     * checks) when that lease runs out. Asked before their losses are noted.
     */
    long toldBy(List<int[]> victims, long now) {
        long by = now + leaseNanos();
        for (int[] v : victims) {
            by = Math.max(by, owner(v[0], v[1], Side.values()[v[2]]).leaseEndBound + ModelSetup.SLACK.toNanos());
        }
        return by;
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
