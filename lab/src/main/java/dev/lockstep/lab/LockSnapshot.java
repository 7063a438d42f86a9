package dev.lockstep.lab;

import dev.lockstep.v3.internal.RedissonLayout;
import dev.lockstep.v7.internal.TokenCounters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.Tuple;
import redis.clients.jedis.util.SafeEncoder;

/**
 * What Redis stores under one lock name, read with read-only commands (TYPE, PTTL, GET, HGETALL,
 * LRANGE, ZRANGE, TIME) and not yet interpreted: the lock key, the fair lock's queue, the read
 * holds' timeouts and stage 7's fencing counter. The reads are not one atomic step: a lock that
 * changes meanwhile may read half before, half after.
 *
 * @param name      the lock's name, which is its key
 * @param type      the key's type: {@code none}, {@code string}, {@code hash}, or what no lock writes
 * @param pttl      the key's PTTL in ms: -2 when there is no key, -1 when it never expires
 * @param value     a string key's value, else null
 * @param fields    a hash key's fields and values, sorted by field; empty for any other type
 * @param waiters   the fair lock's queue, first in line first; empty when nobody waits
 * @param readHolds each reader's field of a read-write lock, with the PTTL of each of its read holds' timeout keys
 * @param fence     the last token stage 7's counter of the name's slot handed out, or null when it has none
 */
record LockSnapshot(String name, String type, long pttl, String value, Map<String, String> fields,
                    List<Waiter> waiters, Map<String, List<Long>> readHolds, Long fence) {

    /** The field of a read-write lock's hash that names its mode: {@code read} or {@code write}. */
    static final String MODE = "mode";
    /** What a read-write lock's writer field ends with: {@code clientId:threadId:write}. */
    static final String WRITER_SUFFIX = ":write";

    // Redisson's names of a fair lock's helper keys (its RedissonFairLock): the fair-lock module writes the same.
    private static final String QUEUE_PREFIX = "redisson_lock_queue:";
    private static final String DEADLINES_PREFIX = "redisson_lock_timeout:";

    /**
     * One waiter of a fair lock.
     *
     * @param owner      its field, {@code clientId:threadId}
     * @param keptMillis how long its place in the queue is kept unless it asks again, by the server's
     *                   clock; null when it has no deadline (a request that finds it first drops it)
     */
    record Waiter(String owner, Long keptMillis) {
    }

    /** Reads lock {@code name} on {@code redis}, changing nothing. */
    static LockSnapshot read(UnifiedJedis redis, String name) {
        String type = redis.type(name);
        long pttl = redis.pttl(name);
        String value = type.equals("string") ? redis.get(name) : null;
        Map<String, String> fields = type.equals("hash") ? new TreeMap<>(redis.hgetAll(name)) : Map.of();
        String tag = helperKeysTag(name);
        List<Waiter> waiters = tag == null ? List.of() : waiters(redis, tag);
        Map<String, List<Long>> readHolds = tag == null || !fields.containsKey(MODE) ? Map.of()
                : readHolds(redis, tag, fields);
        String counter = type.equals("hash") ? redis.get(TokenCounters.keyFor(name)) : null;
        return new LockSnapshot(name, type, pttl, value, Collections.unmodifiableMap(fields), waiters, readHolds,
                counter == null ? null : Long.valueOf(counter));
    }

    /**
     * The hash tag Redisson builds a lock's helper keys around ({@code {name}}, or the name's own tag);
     * null for a name whose braces are not a whole tag: Lockstep refuses such a name from stage 3 on.
     */
    private static String helperKeysTag(String name) {
        try {
            return RedissonLayout.hashTagged(name);
        } catch (IllegalArgumentException notAWholeTag) {
            return null;
        }
    }

    private static List<Waiter> waiters(UnifiedJedis redis, String tag) {
        List<String> queue = redis.lrange(QUEUE_PREFIX + tag, 0, -1);
        if (queue.isEmpty()) {
            return List.of();
        }
        Map<String, Long> deadlines = new TreeMap<>();
        for (Tuple deadline : redis.zrangeWithScores(DEADLINES_PREFIX + tag, 0, -1)) {
            deadlines.put(deadline.getElement(), (long) deadline.getScore());
        }
        long now = serverMillis(redis);
        List<Waiter> waiters = new ArrayList<>();
        for (String owner : queue) {
            Long deadline = deadlines.get(owner);
            waiters.add(new Waiter(owner, deadline == null ? null : Math.max(0, deadline - now)));
        }
        return List.copyOf(waiters);
    }

    /** Each reader's read holds: its count says how many, {@code {name}:owner:rwlock_timeout:1..count} their leases. */
    private static Map<String, List<Long>> readHolds(UnifiedJedis redis, String tag, Map<String, String> fields) {
        Map<String, List<Long>> readHolds = new TreeMap<>();
        fields.forEach((field, count) -> {
            if (field.equals(MODE) || field.endsWith(WRITER_SUFFIX)) {
                return;
            }
            List<Long> leases = new ArrayList<>();
            for (int hold = 1; hold <= Long.parseLong(count); hold++) {
                leases.add(redis.pttl(tag + ":" + field + ":rwlock_timeout:" + hold));
            }
            readHolds.put(field, List.copyOf(leases));
        });
        return Collections.unmodifiableMap(readHolds);
    }

    /** The server's clock in ms: the fair lock's deadlines are written by it (Redisson's, by its client's). */
    private static long serverMillis(UnifiedJedis redis) {
        List<?> time = (List<?>) redis.sendCommand(Protocol.Command.TIME);
        return Long.parseLong(SafeEncoder.encode((byte[]) time.get(0))) * 1000
                + Long.parseLong(SafeEncoder.encode((byte[]) time.get(1))) / 1000;
    }
}
