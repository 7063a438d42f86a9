package dev.lockstep.bench;

import dev.lockstep.FencedLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.ZooKeeperEnsemble;
import dev.lockstep.v7.FencedLocks;
import dev.lockstep.zookeeper.ZooKeeperLocks;
import java.util.UUID;
import java.util.function.Function;
import redis.clients.jedis.RedisClient;

/**
 * A fenced lock's service for one trial, with one client of it: stage 7 on a Redis server (started
 * through testkit's fixture, or the first one {@code -Dlockstep.redis.url} names), or the ZooKeeper
 * lock on a three-server ensemble started in this JVM.
 */
final class FencedLockService implements AutoCloseable {

    /** Names are fresh per trial, so a run against a given server never meets an earlier run's locks. */
    private final String trial = UUID.randomUUID().toString().substring(0, 8);
    private final Function<String, FencedLock> locks;
    /** Closes the client, then the servers: nothing outlives the trial. */
    private final Runnable stop;

    private FencedLockService(Function<String, FencedLock> locks, Runnable stop) {
        this.locks = locks;
        this.stop = stop;
    }

    /** Stage 7 over a pooled Jedis client, as every Redis contender of the bench gets. */
    static FencedLockService stageSeven() {
        RedisServers servers = RedisServers.use(1);
        try {
            RedisClient redis = LockClient.jedis(servers.address(0));
            FencedLocks client = new FencedLocks(redis, LockOptions.defaults());
            return new FencedLockService(client::get, () -> {
                try (RedisServers closing = servers) {
                    client.close();
                    redis.close();
                }
            });
        } catch (RuntimeException e) {
            servers.close();
            throw e;
        }
    }

    /** The ZooKeeper lock; its session timeout is the default watchdog timeout, 30 s. */
    static FencedLockService zooKeeper() {
        ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.start();
        try {
            ZooKeeperLocks client = new ZooKeeperLocks(ensemble.connectString(), LockOptions.defaults());
            return new FencedLockService(client::get, () -> {
                try (ZooKeeperEnsemble closing = ensemble) {
                    client.close();
                }
            });
        } catch (RuntimeException e) {
            ensemble.close();
            throw e;
        }
    }

    /** The lock {@code name} of this trial. */
    FencedLock lock(String name) {
        return locks.apply(name + "-" + trial);
    }

    @Override
    public void close() {
        stop.run();
    }
}
