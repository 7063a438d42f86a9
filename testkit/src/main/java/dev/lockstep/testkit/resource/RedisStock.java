package dev.lockstep.testkit.resource;

import dev.lockstep.internal.LuaScript;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import redis.clients.jedis.UnifiedJedis;

/**
 * The same fenced resource kept in Redis, for comparison with {@link StockTable}: a hash per item
 * ({@code quantity}, {@code fence}) and a check-and-set script that compares the writer's token
 * with the fence and writes, in one atomic step; a fenced read raises the fence to the reader's token
 * as it reads, as {@link StockTable#read(String, String, long)} does. This Redis need not be the lock's.
 */
public final class RedisStock {

    private static final LuaScript FENCED_WRITE = LuaScript.load(RedisStock.class, "fenced-write.lua");
    private static final LuaScript FENCED_READ = LuaScript.load(RedisStock.class, "fenced-read.lua");

    private final UnifiedJedis redis;

    /** Items kept in {@code redis}. */
    public RedisStock(UnifiedJedis redis) {
        this.redis = redis;
    }

    /** Puts {@code item} in stock {@code quantity} times, fence 0. */
    public void stock(String item, long quantity) {
        redis.hset(key(item), Map.of("quantity", Long.toString(quantity), "fence", "0"));
    }

    /** The row of {@code item} now. */
    public StockTable.Row row(String item) {
        List<String> fields = redis.hmget(key(item), "quantity", "fence");
        return new StockTable.Row(Long.parseLong(fields.get(0)), Long.parseLong(fields.get(1)));
    }

    /**
     * The quantity of {@code item}, read by the holder of {@code token}: the fence becomes the token
     * in the same script, so no holder with an older token can write after this read.
     *
     * @throws StaleTokenException when a higher token read or wrote first; the hash is unchanged
     */
    public long read(String item, long token) {
        StockTable.checkToken(token);
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) FENCED_READ.run(redis, List.of(key(item)), List.of(Long.toString(token)));
        if (reply == null) {
            throw new IllegalArgumentException("no item '" + item + "' in stock");
        }
        if (reply.get(0) == 0) {
            throw StaleTokenException.read(item, token, reply.get(1));
        }
        return reply.get(1);
    }

    /**
     * Sets the quantity of {@code item} if no read or write with a higher token came first.
     *
     * @throws StaleTokenException when one did; the hash is unchanged
     */
    public void write(String item, long quantity, long token) {
        StockTable.checkToken(token);
        long fence = (Long) FENCED_WRITE.run(redis, List.of(key(item)),
                List.of(Long.toString(quantity), Long.toString(token)));
        if (fence != 0) {
            throw StaleTokenException.write(item, token, fence);
        }
    }

    private static String key(String item) {
        Objects.requireNonNull(item, "item must not be null");
        return "stock:" + item;
    }
}
