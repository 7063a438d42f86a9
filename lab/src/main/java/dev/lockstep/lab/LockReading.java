package dev.lockstep.lab;

import dev.lockstep.v3.internal.RedissonLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.Tuple;
import redis.clients.jedis.util.SafeEncoder;

/**
 * What Redis stores for one lock name, read with read-only commands and told as an operator asks
 * it: which layout (Lockstep's and Redisson's are the same), who holds it and how often, the lease
 * left, the fair lock's waiters and the read-write lock's readers. Redis is changed in no way.
 */
final class LockReading {

    private LockReading() {
    }

    /** The report for lock {@code name} on {@code redis}, one fact a line. */
    static List<String> of(UnifiedJedis redis, String name) {
        List<String> lines = new ArrayList<>();
        String type = redis.type(name);
        long pttl = redis.pttl(name);
        switch (type) {
            case "none" -> lines.add("not held: no key '" + name + "'");
            case "string" -> {
                lines.add("layout: SET NX PX (stages 1 and 2); value '" + redis.get(name) + "'"
                        + ("1".equals(redis.get(name)) ? " (stage 1: anyone's)" : " (stage 2: the holder's token)"));
                lines.add("lease left: " + lease(pttl));
            }
            case "hash" -> hash(redis, name, pttl, lines);
            default -> lines.add("'" + name + "' is a " + type + ", which no lock layout uses");
        }
        waiters(redis, name, lines);
        return lines;
    }

    private static void hash(UnifiedJedis redis, String name, long pttl, List<String> lines) {
        Map<String, String> fields = new TreeMap<>(redis.hgetAll(name));
        String mode = fields.remove("mode");
        if (mode == null) {
            lines.add("layout: reentrant hash (stages 3 to 7, Redisson's RLock and RFairLock)");
            fields.forEach((owner, count) -> lines.add("held by " + owner(owner) + ", hold count " + count));
            lines.add("lease left: " + lease(pttl));
            return;
        }
        lines.add("layout: read-write (Redisson's RReadWriteLock), mode " + mode);
        String timeoutBase = RedissonLayout.hashTagged(name);
        fields.forEach((field, count) -> {
            if (field.endsWith(":write")) {
                lines.add("written by " + owner(field.substring(0, field.length() - ":write".length())) + ", hold count " + count);
                return;
            }
            List<String> holds = new ArrayList<>();
            for (int hold = 1; hold <= Integer.parseInt(count); hold++) {
                holds.add(lease(redis.pttl(timeoutBase + ":" + field + ":rwlock_timeout:" + hold)));
            }
            lines.add("read by " + owner(field) + ", " + count + " read hold(s), lease left " + String.join(", ", holds));
        });
        lines.add("lease left (the hash, the longest hold in it): " + lease(pttl));
    }

    /** A fair lock's queue, oldest first, with each waiter's deadline by the server's clock. */
    private static void waiters(UnifiedJedis redis, String name, List<String> lines) {
        String queue = "redisson_lock_queue:" + RedissonLayout.hashTagged(name);
        List<String> waiting = redis.lrange(queue, 0, -1);
        if (waiting.isEmpty()) {
            return;
        }
        Map<String, Double> deadlines = new TreeMap<>();
        for (Tuple deadline : redis.zrangeWithScores("redisson_lock_timeout:" + RedissonLayout.hashTagged(name), 0, -1)) {
            deadlines.put(deadline.getElement(), deadline.getScore());
        }
        List<?> now = (List<?>) redis.sendCommand(Protocol.Command.TIME);
        long serverMillis = Long.parseLong(SafeEncoder.encode((byte[]) now.get(0))) * 1000
                + Long.parseLong(SafeEncoder.encode((byte[]) now.get(1))) / 1000;
        lines.add("fair-lock queue, " + waiting.size() + " waiting, first in line first:");
        for (int i = 0; i < waiting.size(); i++) {
            Double deadline = deadlines.get(waiting.get(i));
            lines.add("  " + (i + 1) + ". " + owner(waiting.get(i)) + (deadline == null ? ""
                    : ", keeps its place for " + Math.max(0, deadline.longValue() - serverMillis) + " ms unless it asks again"));
        }
    }

    /** An owner field {@code clientId:threadId} as words: a negative id is a hold that belongs to no thread. */
    static String owner(String field) {
        int colon = field.lastIndexOf(':');
        if (colon < 0) {
            return "'" + field + "'";
        }
        String client = field.substring(0, colon);
        String id = field.substring(colon + 1);
        return "client " + client + (id.startsWith("-") ? ", hold handle " + id.substring(1) : ", thread " + id);
    }

    private static String lease(long pttl) {
        return pttl == -2 ? "none (gone)" : pttl == -1 ? "none: NO TTL, it never expires" : String.format("%,d ms", pttl);
    }
}
