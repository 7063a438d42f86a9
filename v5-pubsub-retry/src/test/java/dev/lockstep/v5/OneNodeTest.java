package dev.lockstep.v5;

import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.UnifiedJedis;

/** One real redis-server per test class, its scripts loaded, and every client closed after each test. */
abstract class OneNodeTest extends SingleNodeTest {

    @BeforeAll
    static void warmScripts() {
        Probe.warmScripts(node);
    }

    /** A v5 client over {@code redis}; both are closed after the test, client first. */
    PubSubLocks client(UnifiedJedis redis) {
        return client(redis, LockOptions.defaults());
    }

    /** A v5 client over {@code redis} with {@code options}; both are closed after the test, client first. */
    PubSubLocks client(UnifiedJedis redis, LockOptions options) {
        closedAfter(redis);
        return closedAfter(new PubSubLocks(redis, options));
    }
}
