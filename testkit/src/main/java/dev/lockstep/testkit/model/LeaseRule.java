package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Side;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * While every hold Redis stores has an explicit lease (taken with one, or extended), the lock's key
 * may not outlive the longest of them: an extend, shorter or longer, sets the lease from the call
 * on, and no renewal may bring back an older one. Checked only while the model is sure of every owner.
 */
final class LeaseRule {

    /** Redis rounds a PTTL to the millisecond. */
    private static final long ROUNDING_MILLIS = 2;

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
                    boolean sure = owner.settled() >= 0 && owner.shakenUntil <= now && owner.exposedUntil <= now
                            && !owner.beliefUnknown && !owner.mixedLease;
                    if (!sure || (owner.settled() > 0 && owner.fixedLeaseEnd == 0)) {
                        return Optional.empty();
                    }
                    if (owner.settled() > 0) {
                        bound = Math.max(bound, owner.leaseEndBound);
                        holders.add(model.field(c, t, side));
                    }
                }
            }
        }
        // A field nobody holds any more may carry a lease of its own until it leaves.
        if (holders.isEmpty() || !holders.equals(new HashSet<>(redis.anyFields()))) {
            return Optional.empty();
        }
        long allowed = (bound - redis.readFrom()) / 1_000_000 + ROUNDING_MILLIS;
        for (long ttl : redis.keyTtls()) {
            if (ttl > allowed) {
                return Optional.of(new Violation("lease-outlived", "the lock's key lives " + ttl + " ms more, but the "
                        + "longest explicit lease of its holders " + holders + " ends in " + allowed + " ms: " + redis));
            }
        }
        return Optional.empty();
    }
}
