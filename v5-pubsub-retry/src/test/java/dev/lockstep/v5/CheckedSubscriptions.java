package dev.lockstep.v5;

import dev.lockstep.testkit.fixture.RedisNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;

/**
 * A pooled Redis client, like {@link RedisNode#newClient()}, that checks every subscription
 * connection as it goes back to the pool: once a subscription has ended, a {@code PING} on its
 * connection must get {@code PONG}. Anything else (a pub/sub reply, a stale script result) means
 * the connection went back with traffic still on it, and the next command borrowed from the
 * pool would read someone else's reply. Such a connection is recorded and discarded, so one
 * finding does not cascade into confusing failures elsewhere.
 */
final class CheckedSubscriptions extends UnifiedJedis {

    private final List<String> dirty = new CopyOnWriteArrayList<>();

    CheckedSubscriptions(RedisNode node) {
        super(new PooledConnectionProvider(node.address(), DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) RedisNode.CLIENT_TIMEOUT.toMillis())
                .socketTimeoutMillis((int) RedisNode.CLIENT_TIMEOUT.toMillis())
                .build()), (RedisProtocol) null);
    }

    /** What each connection that went back dirty answered to PING, and which channels it had been listening on. */
    List<String> dirty() {
        return List.copyOf(dirty);
    }

    /** As {@link UnifiedJedis#subscribe}, plus the check before the connection goes back to the pool. */
    @Override
    public void subscribe(JedisPubSub listener, String... channels) {
        Connection connection = provider.getConnection();
        try {
            listener.proceed(connection, channels);
            Object answer;
            try {
                answer = connection.executeCommand(Protocol.Command.PING);
            } catch (RuntimeException e) {
                answer = e;
            }
            if (!"PONG".equals(text(answer))) {
                dirty.add("after " + List.of(channels) + ": PING got " + text(answer));
                connection.setBroken();
            }
        } finally {
            connection.close();
        }
    }

    private static String text(Object reply) {
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list) {
            return list.stream().map(CheckedSubscriptions::text).toList().toString();
        }
        return String.valueOf(reply);
    }
}
