package dev.lockstep.examples;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.v5.PubSubLocks;
import redis.clients.jedis.RedisClient;

/** The smallest use of a stage, compiled against the jars the BOM selects. */
public final class OrderJob {

    private OrderJob() {
    }

    /** Runs one critical section under the lock {@code orders} on the Redis at {@code host}:{@code port}. */
    public static void main(String[] args) {
        try (RedisClient redis = RedisClient.create(args[0], Integer.parseInt(args[1]));
             Locks locks = new PubSubLocks(redis, LockOptions.defaults())) {
            DistLock orders = locks.get("orders");
            orders.lock();
            try {
                System.out.println("holding 'orders'");
            } finally {
                orders.unlock();
            }
        }
    }
}
