package dev.lockstep.v4.internal;

import dev.lockstep.LockException;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Replica sync: the lock script followed by {@code WAIT} on the same connection, in one round
 * trip. A grant counts only once enough replicas have it, so a failover to one of them cannot
 * hand the lock to a second client; otherwise it is given back and reported.
 *
 * @param replicas  how many replicas must acknowledge
 * @param timeoutMs how long {@code WAIT} waits for them
 */
record ReplicaSync(int replicas, long timeoutMs) {

    /** The lock script's reply, given as {@code lockCall} queued on a pipeline of {@code redis}. */
    Object lock(UnifiedJedis redis, String lockName, String key, Function<AbstractPipeline, Response<Object>> lockCall,
            boolean firstHold, Runnable giveBack) {
        Response<Object> reply;
        Response<Long> acknowledged;
        try (AbstractPipeline pipeline = redis.pipelined()) {
            reply = lockCall.apply(pipeline);
            acknowledged = pipeline.waitReplicas(key, replicas, timeoutMs);
            pipeline.sync();
        } catch (JedisConnectionException e) {
            // The script may have run before the connection gave up on WAIT: give back what a first hold may
            // have granted (a re-entry keeps its outer hold, and the thread's next call writes its count).
            if (firstHold) {
                try {
                    giveBack.run();
                } catch (RuntimeException undoFailed) {
                    e.addSuppressed(undoFailed);
                }
            }
            throw e;
        }
        if (!(reply.get() instanceof Long) && acknowledged.get() < replicas) {
            giveBack.run();
            throw new LockException(lockName, "taken on the master, but only " + acknowledged.get() + " of " + replicas
                    + " replicas acknowledged it within " + timeoutMs + " ms, so it was released");
        }
        return reply.get();
    }
}
