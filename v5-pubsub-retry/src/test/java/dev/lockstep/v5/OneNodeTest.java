package dev.lockstep.v5;

import dev.lockstep.LockOptions;
import dev.lockstep.testkit.RedisFixture;
import dev.lockstep.testkit.RedisNode;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.UnifiedJedis;

/** One real redis-server per test class, its scripts loaded, and every client closed after each test. */
abstract class OneNodeTest {

    static RedisFixture fixture;
    static RedisNode node;

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    @BeforeAll
    static void startRedis() throws Exception {
        fixture = RedisFixture.processes();
        node = fixture.start();
        Probe.warmScripts(node);
    }

    @AfterAll
    static void stopRedis() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** Closes what the test opened, newest first: clients before their connections. */
    @AfterEach
    void closeClients() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    /** Closes {@code resource} after the test, before anything opened earlier. */
    void track(AutoCloseable resource) {
        opened.push(resource);
    }

    /** A v5 client over {@code redis}; both are closed after the test, client first. */
    PubSubLocks client(UnifiedJedis redis) {
        return client(redis, LockOptions.defaults());
    }

    /** A v5 client over {@code redis} with {@code options}; both are closed after the test, client first. */
    PubSubLocks client(UnifiedJedis redis, LockOptions options) {
        opened.push(redis);
        PubSubLocks locks = new PubSubLocks(redis, options);
        opened.push(locks);
        return locks;
    }
}
