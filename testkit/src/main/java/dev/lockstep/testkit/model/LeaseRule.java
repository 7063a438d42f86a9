package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Side;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An explicit lease (taken with one, or extended) is what its holder believes, both ways. While
 * every hold Redis stores has one, the lock's key may not outlive the longest of them: an extend,
 * shorter or longer, sets the lease from the call on, and no renewal may bring back an older one.
 * And while an owner surely holds with one, the key may not end before it does: no renewal landing
 * late, and no other lock on the same name, may cut it. Checked only while the model is sure.
 */
final class LeaseRule {

    /** Redis rounds a PTTL to the millisecond. */
    private static final long ROUNDING_MILLIS = 2;
    /** Redis's expiry clock and this JVM's nanoTime may drift apart by a little within a run. */
    private static final long CLOCK_MILLIS = 10;

    private LeaseRule() {
    }

    /** The key's TTL on a node that exceeds the longest explicit lease left, if the model can tell. */
    static Optional<Violation> check(ReferenceModel model, RedisView redis, long now) {
        long bound = 0;
        Set<String> holders = new HashSet<>();
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : model.sides()) {
                    OwnerModel owner = model.owner(c, t, side);
                    if (!sure(owner, now) || (owner.settled() > 0 && owner.fixedLeaseEnd == 0)) {
                        return Optional.empty();
                    }
                    if (owner.settled() > 0) {
                        bound = Math.max(bound, owner.leaseEndBound);
                        holders.add(model.field(c, t, side));
                    }
                }
            }
        }
        // A field nobody holds any more may carry a lease of its own until it leaves, on either name.
        if (holders.isEmpty() || !holders.equals(new HashSet<>(redis.anyFields())) || !holders.containsAll(redis.otherOnly())) {
            return Optional.empty();
        }
        // A lease a script sets counts from the script's arrival, which its client can only guess from before it
        // sent it (a lock letting go of a shared name sets the lease left to the owner's other holds): a key may
        // live a transit, here bounded as the clocks' drift, past the bound (1 ms past it in two loaded runs).
        long allowed = (bound - redis.readFrom()) / 1_000_000 + ROUNDING_MILLIS + CLOCK_MILLIS;
        for (long ttl : redis.keyTtls()) {
            if (ttl > allowed) {
                return Optional.of(new Violation("lease-outlived", "the lock's key lives " + ttl + " ms more, but the "
                        + "longest explicit lease of its holders " + holders + " ends in " + allowed + " ms: " + redis));
            }
        }
        return Optional.empty();
    }

    /**
     * A key that ends before an explicit lease its holder surely has: on a majority of nodes, the
     * modelled name's key (held on every side) and the group's other name (held by the group side).
     */
    static Optional<Violation> checkFloor(ReferenceModel model, RedisView redis, long now, boolean severalNames) {
        int names = severalNames ? 2 : 1;
        for (int name = 0; name < names; name++) {
            String holder = null;
            long floor = 0;
            for (int c = 0; c < ModelSetup.CLIENTS; c++) {
                for (int t = 0; t < ModelSetup.OWNERS; t++) {
                    for (Side side : model.sides()) {
                        OwnerModel owner = model.owner(c, t, side);
                        boolean onName = name == 0 || side == Side.GROUP;
                        // The lease's own last moments are left to the lock's loss rules.
                        if (onName && sure(owner, now) && owner.settled() > 0 && owner.fixedLeaseEnd - ModelSetup.SLACK.toNanos() > now
                                && owner.fixedLeaseEnd > floor) {
                            floor = owner.fixedLeaseEnd;
                            holder = Step.ownerName(c, t) + ReferenceModel.sideName(side);
                        }
                    }
                }
            }
            if (holder == null) {
                continue;
            }
            long needed = (floor - redis.readTo()) / 1_000_000 - ROUNDING_MILLIS - CLOCK_MILLIS;
            List<Long> ttls = new ArrayList<>();
            for (int node = 0; node * names < redis.keyTtls().size(); node++) {
                ttls.add(redis.keyTtls().get(node * names + name));
            }
            long lasting = ttls.stream().filter(ttl -> ttl >= needed || ttl == -1).count();
            int nodes = ttls.size();
            if (lasting <= nodes / 2) {
                return Optional.of(new Violation("lease-cut", "the key of " + (name == 0 ? ModelSetup.LOCK : ModelSetup.OTHER)
                        + " ends in " + ttls + " ms, but " + holder + " surely holds it with an explicit lease that ends in "
                        + needed + " ms or more: " + redis));
            }
        }
        return Optional.empty();
    }

    /** Whether the model is sure of what {@code owner} holds, and of its lease: no fault or doubt is in the way. */
    private static boolean sure(OwnerModel owner, long now) {
        return owner.settled() >= 0 && owner.shakenUntil <= now && owner.exposedUntil <= now
                && !owner.beliefUnknown && !owner.mixedLease;
    }
}
