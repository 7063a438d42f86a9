package dev.lockstep.bench;

import dev.lockstep.CompositeLocks;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.multi.MultiNameLock;
import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.redisson.Redisson;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * One client identity of a contender, like one application instance: a Lockstep {@link Locks}
 * or a Redisson client. Both hand out plain {@link Lock}s, so a benchmark runs either unchanged.
 */
interface LockClient extends AutoCloseable {

    /**
     * Connections per client and node, for both libraries: Redisson's default pool size. Jedis's
     * default of 8 would make 8 benchmark threads plus a v5 subscriber wait for each other's
     * connections, a cost of the pool setting and not of the lock.
     */
    int CONNECTIONS = 64;

    /** The lock called {@code name}, as this client names it in Redis. */
    Lock lock(String name);

    /**
     * One lock over {@code names}, held only as a whole: a Lockstep client's own when it hands one
     * out ({@link CompositeLocks}), else a {@link MultiNameLock} over its locks; Redisson's
     * {@code RedissonMultiLock} over its locks.
     */
    Lock lockAll(List<String> names);

    /** Closes the client and every connection it opened; held locks are left to expire. */
    @Override
    void close();

    /** A client of a single-node Lockstep stage over its own pool of connections to {@code address}. */
    static LockClient lockstep(HostAndPort address, BiFunction<UnifiedJedis, LockOptions, Locks> stage) {
        RedisClient redis = jedis(address);
        Locks locks = stage.apply(redis, LockOptions.defaults());
        return wrap(locks, List.of(redis));
    }

    /** A client of a quorum stage over one pool of connections per node. */
    static LockClient lockstep(List<HostAndPort> nodes, BiFunction<List<UnifiedJedis>, LockOptions, Locks> stage) {
        List<RedisClient> redis = nodes.stream().map(LockClient::jedis).toList();
        Locks locks = stage.apply(List.copyOf(redis), LockOptions.defaults());
        return wrap(locks, redis);
    }

    private static LockClient wrap(Locks locks, List<RedisClient> connections) {
        return new LockClient() {
            @Override
            public Lock lock(String name) {
                return locks.get(name);
            }

            @Override
            public Lock lockAll(List<String> names) {
                return locks instanceof CompositeLocks composite ? composite.getAll(names.toArray(String[]::new))
                        : new MultiNameLock(names.stream().map(locks::get).toList());
            }

            @Override
            public void close() {
                locks.close();
                connections.forEach(RedisClient::close);
            }
        };
    }

    /** A Redisson client of {@code address} with Redisson's defaults, handing out {@code kind} locks. */
    static LockClient redisson(HostAndPort address, BiFunction<RedissonClient, String, RLock> kind) {
        RedissonClient client = connect(address, null);
        return wrap(List.of(client), name -> kind.apply(client, name));
    }

    /**
     * One Redisson client per node, their locks combined into one by {@code combine}. A node
     * answers within {@code nodeTimeout} or counts as failed, as in Lockstep's v6 (Redisson's
     * default is 3 s, retried): both then wait equally long for a stalled node.
     */
    static LockClient redisson(List<HostAndPort> nodes, Duration nodeTimeout, Function<RLock[], RLock> combine) {
        List<RedissonClient> clients = nodes.stream().map(node -> connect(node, nodeTimeout)).toList();
        return wrap(clients, name -> combine.apply(
                clients.stream().map(client -> client.getLock(name)).toArray(RLock[]::new)));
    }

    private static LockClient wrap(List<RedissonClient> clients, Function<String, RLock> byName) {
        return new LockClient() {
            @Override
            public Lock lock(String name) {
                return byName.apply(name);
            }

            @Override
            public Lock lockAll(List<String> names) {
                return new RedissonMultiLock(names.stream().map(byName).toArray(RLock[]::new));
            }

            @Override
            public void close() {
                // No quiet period: nothing is in flight once a trial is over, and the default 2 s would be paid per fork.
                clients.forEach(client -> client.shutdown(0, 5, TimeUnit.SECONDS));
            }
        };
    }


    /** A Redisson client of {@code address} with Redisson's defaults. */
    static RedissonClient redissonClient(HostAndPort address) {
        return connect(address, null);
    }

    private static RedissonClient connect(HostAndPort address, Duration responseTimeout) {
        Config config = new Config();
        var server = config.useSingleServer().setAddress("redis://" + address.getHost() + ":" + address.getPort());
        if (responseTimeout != null) {
            // Each idle connection is opened with a PING under this short timeout; 24 of them (the default) per node,
            // times five nodes and two clients, at once on two cores, made client start-up fail now and then.
            // A quorum benchmark's single thread needs one connection per node.
            server.setTimeout((int) responseTimeout.toMillis()).setRetryAttempts(0).setConnectionMinimumIdleSize(2);
        }
        return Redisson.create(config);
    }

    /** A Redisson client of the Redis Cluster seeded with {@code nodes}, with Redisson's defaults. */
    static RedissonClient redissonCluster(Collection<HostAndPort> nodes) {
        Config config = new Config();
        var cluster = config.useClusterServers();
        nodes.forEach(node -> cluster.addNodeAddress("redis://" + node.getHost() + ":" + node.getPort()));
        return Redisson.create(config);
    }

    /** A pooled Jedis client of {@code address} with {@link #CONNECTIONS} connections and testkit's timeouts. */
    static RedisClient jedis(HostAndPort address) {
        return RedisClient.builder().hostAndPort(address).clientConfig(clientConfig()).poolConfig(pool()).build();
    }

    /** A Jedis client of the Redis Cluster seeded with {@code nodes}: {@link #CONNECTIONS} connections per node, as Redisson's. */
    static RedisClusterClient jedisCluster(Collection<HostAndPort> nodes) {
        return RedisClusterClient.builder().nodes(new LinkedHashSet<>(nodes)).clientConfig(clientConfig())
                .poolConfig(pool()).build();
    }

    private static DefaultJedisClientConfig clientConfig() {
        int timeout = (int) RedisNode.CLIENT_TIMEOUT.toMillis();
        return DefaultJedisClientConfig.builder().connectionTimeoutMillis(timeout).socketTimeoutMillis(timeout).build();
    }

    private static ConnectionPoolConfig pool() {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(CONNECTIONS);
        pool.setMaxIdle(CONNECTIONS);
        return pool;
    }
}
