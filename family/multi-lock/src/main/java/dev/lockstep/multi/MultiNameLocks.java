package dev.lockstep.multi;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.internal.Args;
import dev.lockstep.v5.PubSubLocks;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import redis.clients.jedis.UnifiedJedis;

/**
 * A stage-5 client that also takes several names as one lock ({@link #getAll}), without deadlock
 * and all or nothing. Its single names are stage 5's locks.
 */
public class MultiNameLocks extends PubSubLocks implements CompositeLocks {

    /** A client over {@code redis}. */
    public MultiNameLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, claimsAnd(Guarantee.NO_DEADLOCK, Guarantee.ALL_OR_NOTHING));
    }

    @Override
    public DistLock getAll(String... names) {
        List<String> listed = List.of(Objects.requireNonNull(names, "names"));
        if (listed.isEmpty()) {
            throw new IllegalArgumentException("names must hold at least one name, was empty");
        }
        Set<String> seen = new HashSet<>();
        for (String name : listed) {
            if (!seen.add(Args.name(name, "names"))) {
                throw new IllegalArgumentException("names must not hold one name twice, was '" + name + "' twice");
            }
        }
        return listed.size() == 1 ? get(listed.get(0)) : new MultiNameLock(listed.stream().map(this::get).toList());
    }
}
