package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Side;
import java.util.List;

/**
 * How holds end without their owner's call, in the {@link ReferenceModel}: a {@code forceUnlock},
 * a stall past the lease, a closed or crashed client, a fixed lease that ran out, a loss signal.
 * The model then settles the owner at 0 and gives its Redis field a deadline: gone within one lease
 * (plus a slack for a loaded machine), or the lock is stuck. A fault on a client's wire (a lost
 * reply, a blip) may cost its other holds their renewals; those owners are <em>shaken</em> for one
 * lease, and their counts are checked again only after it. And a grant its owner never heard of
 * ends too, by a deadline or with the owner's last unlock.
 */
final class Losses {

    private final ReferenceModel model;

    Losses(ReferenceModel model) {
        this.model = model;
    }

    /**
     * Redis may have granted a call the owner was told was refused: a re-entry's extra count must end
     * with the owner's last unlock, a first hold's field must run out within one lease, unrenewed. A
     * group's share on the modelled name, which the owner's single hold renews, ends as a re-entry's
     * does, with the single hold's last unlock.
     */
    void unheardGrant(int client, int thread, Side side, long now) {
        OwnerModel owner = model.owner(client, thread, side);
        if (owner.surelyHolds()) {
            owner.unheardGrants++;
        } else {
            model.departures().depart(model.field(client, thread, side), now + model.leaseNanos());
            OwnerModel single = model.owner(client, thread, Side.WRITE);
            if (side == Side.GROUP && single.surelyHolds()) {
                single.unheardGrants++;
            }
        }
    }

    /** The hold is gone without its owner's call: count 0, and its field must leave Redis within {@code within}. */
    void lost(int client, int thread, Side side, long now, long within) {
        OwnerModel owner = model.owner(client, thread, side);
        if (owner.mayHold()) {
            // An explicit lease longer than the bound keeps the field in Redis until it runs out.
            long end = Math.max(now + within, owner.leaseEndBound + ModelSetup.SLACK.toNanos());
            model.departures().depart(model.field(client, thread, side), end);
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
                model.owner(client, t, side).shakenUntil = now + model.leaseNanos();
            }
        }
    }

    /** The lock told {@code thread} at {@code toldAt} that its hold was lost: the field must be gone a lease later. */
    void told(int client, int thread, Side side, long toldAt) {
        OwnerModel owner = model.owner(client, thread, side);
        if (toldAt > owner.grantedAt && owner.mayHold()) {
            lost(client, thread, side, toldAt, model.leaseNanos());
            owner.lossSignalled = true;
        }
    }

    /** Fixed leases that ran out end their holds; the lock may not know yet, Redis must drop the field. */
    void advance(long now) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : Side.values()) {
                    OwnerModel owner = model.owner(c, t, side);
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
     * By when (nanoTime) {@code victims} ({client, thread, side}), whose holds were just taken away,
     * must have been told: within one lease, or (a hold with an explicit lease, which no renewal
     * checks) when that lease runs out. Asked before their losses are noted.
     */
    long toldBy(List<int[]> victims, long now) {
        long by = now + model.leaseNanos();
        for (int[] v : victims) {
            by = Math.max(by, model.owner(v[0], v[1], Side.values()[v[2]]).leaseEndBound + ModelSetup.SLACK.toNanos());
        }
        return by;
    }
}
