package dev.lockstep.multi;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.internal.Args;
import dev.lockstep.multi.internal.NameGroupLock;
import dev.lockstep.multi.internal.NameHolds;
import dev.lockstep.v5.PubSubLocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A stage-5 client that also takes several names as one lock ({@link #getAll}). The names one node
 * serves (all of them on a single server; on a Cluster, those of one slot, which hash tags such as
 * {@code {order:7}stock} and {@code {order:7}account} arrange) are taken all or none in one script,
 * renewed as one hold and given back in one script. Names on several slots become one such lock per
 * slot, held together by a {@link MultiNameLock}. A single name is stage 5's lock, in one script too.
 */
public final class MultiNameLocks extends PubSubLocks implements CompositeLocks {

    private final NameHolds nameHolds = new NameHolds();

    /** A client over {@code redis}: a single server, or a Cluster. */
    public MultiNameLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, claimsAnd(Guarantee.NO_DEADLOCK, Guarantee.ALL_OR_NOTHING));
    }

    @Override
    public DistLock getAll(String... names) {
        Objects.requireNonNull(names, "names must not be null");
        if (names.length == 0) {
            throw new IllegalArgumentException("names must hold at least one name, was empty");
        }
        // Sorted: every lock over a set of names takes its slots in one order, and each slot's names in one script.
        Map<Integer, List<String>> bySlot = new TreeMap<>();
        TreeSet<String> seen = new TreeSet<>();
        for (String name : names) {
            if (!seen.add(Args.name(name, "names"))) {
                throw new IllegalArgumentException("names must not hold one name twice, was '" + name + "' twice");
            }
        }
        for (String name : seen) {
            bySlot.computeIfAbsent(slot(name), s -> new ArrayList<>()).add(name);
        }
        List<DistLock> perSlot = new ArrayList<>();
        bySlot.forEach((slot, sameSlot) -> {
            if (slot(String.join("+", sameSlot)) == slot) {
                perSlot.add(lockOver(sameSlot));
            } else {
                // Names in one slot by chance, without a common hash tag: the joined name, which routes the
                // lock's WAIT for replicas, hashes to another slot. They are taken one by one instead.
                sameSlot.forEach(name -> perSlot.add(get(name)));
            }
        });
        return perSlot.size() == 1 ? perSlot.get(0) : new MultiNameLock(perSlot);
    }

    /**
     * The one-script lock over {@code names}, all of one slot: this client's one object for them, kept
     * under the list of names, so that it is never the lock of a name that looks like the group's
     * ({@code get("a+b")} is the lock of the name {@code a+b}).
     */
    private DistLock lockOver(List<String> names) {
        if (names.size() == 1) {
            return get(names.get(0));
        }
        String name = String.join("+", names);
        return lockObject(new NameGroup(List.copyOf(names)), name,
                () -> new NameGroupLock(name, names, this, watchdog(), subscriber(), nameHolds));
    }

    /** The key a group's lock object is kept under: no name equals it. */
    private record NameGroup(List<String> names) {
    }

    /** The slot {@code name} lives in: all names share one on a single server. */
    private int slot(String name) {
        return redis() instanceof RedisClusterClient ? JedisClusterCRC16.getSlot(name) : 0;
    }

    /** The channels this client's waiters sleep on right now, for tests. */
    Set<String> waitedChannels() {
        return subscriber().channels();
    }

    @Override
    protected DistLock newLock(String name) {
        return new NameGroupLock(name, List.of(name), this, watchdog(), subscriber(), nameHolds);
    }
}
