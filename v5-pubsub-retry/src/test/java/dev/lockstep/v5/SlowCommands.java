package dev.lockstep.v5;

import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;

/**
 * A Redis client whose commands travel through a {@link FaultyLink} that delays every chunk,
 * while its subscriptions go straight to the server. Given to a {@link PubSubLocks}, it stretches
 * the moments between a lock attempt reaching Redis and its reply reaching the waiter from
 * microseconds to {@code delay}: a release published in that gap reaches the waiter's client
 * first, deterministically. It is an ordinary {@link UnifiedJedis}, used through the public API.
 */
final class SlowCommands extends UnifiedJedis {

    private final FaultyLink link;
    private final RedisClient subscriptions;

    private SlowCommands(FaultyLink link, RedisClient subscriptions) {
        super(new PooledConnectionProvider(link.address(), DefaultJedisClientConfig.builder()
                // Several delayed round trips per call (connection set-up included) fit in this.
                .connectionTimeoutMillis(5_000)
                .socketTimeoutMillis(5_000)
                .build()), (RedisProtocol) null);
        this.link = link;
        this.subscriptions = subscriptions;
    }

    /** A client of {@code node} whose commands are each delayed by {@code delay} both ways. */
    static SlowCommands to(RedisNode node, Duration delay) {
        FaultyLink link = FaultyLink.to(node.address());
        link.delay(delay);
        return new SlowCommands(link, node.newClient());
    }

    /** Subscriptions skip the delay: release messages arrive as fast as on any client. */
    @Override
    public void subscribe(JedisPubSub listener, String... channels) {
        subscriptions.subscribe(listener, channels);
    }

    @Override
    public void close() {
        super.close();
        subscriptions.close();
        link.close();
    }
}
