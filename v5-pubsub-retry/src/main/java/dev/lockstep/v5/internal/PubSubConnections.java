package dev.lockstep.v5.internal;

import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.util.Pool;

/**
 * Where a subscription gets a connection of its own, which a heartbeat can cut: from the pool of
 * a plain client, a cluster's node for the channel's slot, or a sentinel client's one master.
 */
final class PubSubConnections {

    private PubSubConnections() {
    }

    /** A connection from {@code redis}'s pool for {@code channel}, or null when it has no pool we can reach. */
    static Connection borrow(UnifiedJedis redis, String channel) {
        if (redis instanceof RedisClient client) {
            return client.getPool().getResource();
        }
        if (redis instanceof RedisClusterClient cluster) {
            // A PUBLISH reaches subscribers on every node of a cluster: any node will do, the channel's is natural.
            return cluster.getConnectionFromSlot(JedisClusterCRC16.getSlot(channel));
        }
        if (redis instanceof RedisSentinelClient sentinel && sentinel.getPrimaryNodesConnectionMap().size() == 1) {
            Pool<Connection> master = sentinel.getPrimaryNodesConnectionMap().values().iterator().next();
            return master.getResource();
        }
        return null;
    }
}
