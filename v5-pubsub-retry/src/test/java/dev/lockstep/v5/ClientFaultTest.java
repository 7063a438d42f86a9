package dev.lockstep.v5;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.Await;
import dev.lockstep.testkit.FaultyLink;
import dev.lockstep.testkit.LockThread;
import dev.lockstep.testkit.NodeConfig;
import dev.lockstep.testkit.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * A waiter's faults on its own side of the wire: its subscription goes half-open or is never
 * confirmed, or Redis restarts under it. In each, a release must reach the waiter within about a
 * second once the fault allows it, never a holder's lease later.
 */
class ClientFaultTest extends OneNodeTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Once the fault has healed: a retry pause, a resubscription and a try, and room for a busy machine. */
    private static final Duration PROMPTLY = Duration.ofSeconds(1);
    /** A half-open connection heals only when it is noticed: two heartbeats, then as {@link #PROMPTLY}. */
    private static final Duration NOTICED = Subscriber.HEARTBEAT.multipliedBy(2).plus(PROMPTLY);

    private PubSubLocks clientAt(HostAndPort address) {
        return client(RedisNode.newClient(address));
    }

    private FaultyLink link(RedisNode to) {
        return closedAfter(FaultyLink.to(to.address()));
    }

    @Test
    void aHalfOpenSubscriptionIsNoticedAndTheReleaseStillWakesTheWaiter() throws Exception {
        FaultyLink link = link(node);
        DistLock holder = clientAt(node.address()).get("half-open");
        DistLock waiter = clientAt(link.address()).get("half-open");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        try (LockThread thread = new LockThread("half-open")) {
            Future<Boolean> waiting = thread.submit(() -> waiter.tryLock(WAIT, null));
            Await.until("the waiter subscribes", WAIT, () -> Probe.subscribers(node, Probe.channel("half-open")) == 1);
            link.freezeSubscribers();
            holder.unlock();
            long released = System.nanoTime();
            assertTrue(LockThread.get(waiting, WAIT), "the waiter never got the released lock");
            long lagMillis = (System.nanoTime() - released) / 1_000_000;
            assertTrue(lagMillis < NOTICED.toMillis(), "the waiter slept " + lagMillis + " ms on a dead subscription");
            thread.run(waiter::unlock);
        }
    }

    @Test
    void anUnconfirmedSubscriptionDoesNotStretchAShortWait() throws Exception {
        FaultyLink link = link(node);
        DistLock holder = clientAt(node.address()).get("unconfirmed");
        DistLock waiter = clientAt(link.address()).get("unconfirmed");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        link.freezeEverySubscriber();
        try (LockThread thread = new LockThread("unconfirmed")) {
            long start = System.nanoTime();
            assertFalse(thread.call(() -> waiter.tryLock(Duration.ofMillis(50), null)));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            // The confirmation wait is 10 spin intervals, 1 s by default: a 50 ms wait must not sit it out.
            assertTrue(tookMillis < 500, "tryLock(50 ms) took " + tookMillis + " ms");
        }
        holder.unlock();
    }

    @Test
    void aRestartWithoutPersistenceFreesTheLockForTheWaiter() throws Exception {
        RedisNode restarted = fixture.start();
        Probe.warmScripts(restarted);
        DistLock holder = clientAt(restarted.address()).get("amnesia");
        RedisClient waiterRedis = RedisNode.newClient(restarted.address());
        DistLock waiter = client(waiterRedis).get("amnesia");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        try (LockThread thread = new LockThread("amnesia")) {
            Future<Boolean> waiting = thread.submit(() -> waiter.tryLock(WAIT, null));
            Await.until("the waiter subscribes", WAIT, () -> Probe.subscribers(restarted, Probe.channel("amnesia")) == 1);
            fillPool(waiterRedis);
            restarted.restart();
            long back = System.nanoTime();
            assertTrue(LockThread.get(waiting, WAIT), "the waiter never took the lock the restart forgot");
            long lagMillis = (System.nanoTime() - back) / 1_000_000;
            assertTrue(lagMillis < PROMPTLY.toMillis(), "the waiter took " + lagMillis + " ms after Redis was back");
            thread.run(waiter::unlock);
        }
    }

    /**
     * Leaves a few idle connections in {@code redis}'s pool, as a busy client has: a restart makes
     * them all stale, and the waiter's next tries borrow them and fail before the pool opens new ones.
     */
    private static void fillPool(RedisClient redis) {
        List<Connection> borrowed = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Connection connection = redis.getPool().getResource();
            connection.ping();
            borrowed.add(connection);
        }
        borrowed.forEach(Connection::close);
    }

    /** Whether the connection named {@code holder} has run a script on {@code node}. */
    private static boolean renewedOn(RedisNode node) {
        try (Jedis admin = node.admin()) {
            return admin.clientList().lines()
                    .anyMatch(line -> line.contains(" name=holder ") && line.matches(".* cmd=eval(sha)? .*"));
        }
    }

    @Test
    void aRestartWithPersistenceKeepsTheLockAndTheReleaseWakesTheWaiter() throws Exception {
        RedisNode restarted = fixture.start(new NodeConfig(true));
        Probe.warmScripts(restarted);
        // A holder renewing every 200 ms: its watchdog finds the restarted server, as a live holder's would.
        LockOptions renewing = LockOptions.defaults().withWatchdogTimeout(Duration.ofMillis(600));
        RedisClient named = RedisClient.builder().hostAndPort(restarted.address())
                .clientConfig(DefaultJedisClientConfig.builder().clientName("holder").build()).build();
        DistLock holder = client(named, renewing).get("persisted");
        RedisClient waiterRedis = RedisNode.newClient(restarted.address());
        DistLock waiter = client(waiterRedis).get("persisted");
        try (LockThread holding = new LockThread("persisted-holder"); LockThread thread = new LockThread("persisted")) {
            assertTrue(holding.call(() -> holder.tryLock(Duration.ZERO, null)));
            Future<Boolean> waiting = thread.submit(() -> waiter.tryLock(WAIT, null));
            Await.until("the waiter subscribes", WAIT, () -> Probe.subscribers(restarted, Probe.channel("persisted")) == 1);
            fillPool(waiterRedis);
            restarted.restart();
            Await.until("the waiter subscribes again", WAIT,
                    () -> Probe.subscribers(restarted, Probe.channel("persisted")) == 1);
            Await.until("the holder's renewals reach the restarted server", WAIT, () -> renewedOn(restarted));
            assertFalse(waiting.isDone(), "the waiter took a lock the restart kept");
            holding.run(holder::unlock);
            long released = System.nanoTime();
            assertTrue(LockThread.get(waiting, WAIT), "the waiter never got the released lock");
            long lagMillis = (System.nanoTime() - released) / 1_000_000;
            assertTrue(lagMillis < PROMPTLY.toMillis(), "the waiter took " + lagMillis + " ms after the release");
            thread.run(waiter::unlock);
        }
    }
}
