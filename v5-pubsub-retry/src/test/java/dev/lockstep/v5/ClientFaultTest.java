package dev.lockstep.v5;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.NodeConfig;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.v5.internal.Subscriber;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * A subscription whose last channel goes ends with its connection closed, not pooled: Jedis's
     * listener keeps the connection it was given, and traffic still on its way (a late PING or
     * SUBSCRIBE, a release message) would answer the next borrower's command.
     */
    @Test
    void aSubscriptionThatEndsClosesItsConnection() throws Exception {
        DistLock holder = clientAt(node.address()).get("ended");
        DistLock waiter = clientAt(node.address()).get("ended");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        try (LockThread thread = new LockThread("ended")) {
            Future<Boolean> waiting = thread.submit(() -> waiter.tryLock(WAIT, null));
            Await.until("the waiter subscribes", WAIT, () -> Probe.subscribers(node, Probe.channel("ended")) == 1);
            Set<String> subscription = Probe.subscribedConnections(node);
            holder.unlock();
            assertTrue(LockThread.get(waiting, WAIT), "the waiter never got the released lock");
            Await.until("the ended subscription's connection is closed", WAIT,
                    () -> Collections.disjoint(Probe.connections(node), subscription));
            thread.run(waiter::unlock);
        }
    }

    /**
     * A reply the subscription's read loop cannot place (a stray PONG, as Jedis 8 sometimes meets
     * one) breaks the loop. Its connection, still subscribed, must be closed, not pooled: pooled,
     * it is the next one borrowed, and answers someone's lock script with a pub/sub push.
     */
    @Test
    void aSubscriptionWhoseReadLoopBreaksClosesItsConnectionInsteadOfPoolingIt() throws Exception {
        FaultyLink link = link(node);
        DistLock holder = clientAt(node.address()).get("stray");
        DistLock waiter = clientAt(link.address()).get("stray");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        try (LockThread thread = new LockThread("stray")) {
            Future<Boolean> waiting = thread.submit(() -> waiter.tryLock(WAIT, null));
            Await.until("the waiter subscribes", WAIT, () -> Probe.subscribers(node, Probe.channel("stray")) == 1);
            Set<String> broken = Probe.subscribedConnections(node);
            link.strayReplyToSubscribers("+PONG\r\n");
            Await.until("the subscription is back, on a new connection, and only there", WAIT, () -> {
                Set<String> now = Probe.subscribedConnections(node);
                return now.size() == 1 && !now.equals(broken);
            });
            holder.unlock();
            assertTrue(LockThread.get(waiting, WAIT), "the waiter never got the released lock");
            thread.run(waiter::unlock);
        }
    }

    /**
     * The subscription's connection was half-open before it subscribed (dead while idle in the
     * pool): its SUBSCRIBE is never confirmed. The sleeping waiter's heartbeat must replace it, so
     * a release once the network is back wakes the waiter, not the end of the holder's lease.
     */
    @Test
    void aSubscriptionNeverConfirmedIsReplacedAndTheReleaseStillWakesTheWaiter() throws Exception {
        FaultyLink link = link(node);
        DistLock holder = clientAt(node.address()).get("never-confirmed");
        DistLock waiter = clientAt(link.address()).get("never-confirmed");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        link.freezeEverySubscriber();
        try (LockThread thread = new LockThread("never-confirmed")) {
            Future<Boolean> waiting = thread.submit(() -> waiter.tryLock(WAIT, null));
            Await.until("the waiter sleeps on its unconfirmed channel", WAIT, () -> asleep(thread));
            assertEquals(0, Probe.subscribers(node, Probe.channel("never-confirmed")), "the SUBSCRIBE got through");
            link.heal();
            holder.unlock();
            long released = System.nanoTime();
            assertTrue(LockThread.get(waiting, WAIT), "the waiter never got the released lock");
            long lagMillis = (System.nanoTime() - released) / 1_000_000;
            assertTrue(lagMillis < NOTICED.toMillis(), "the waiter slept " + lagMillis + " ms on an unconfirmed subscription");
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
            Await.until("the waiter sleeps on the channel", WAIT, () -> asleep(thread));
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
     * The subscription drops and, while the subscriber pauses before reconnecting, a second waiter
     * joins. Nothing may be written to the dead connection meanwhile: Jedis would quietly open a
     * new socket for the write, subscribed and never read, a connection that outlives the client.
     * The new waiter is subscribed with the reconnection, on the one connection the client has.
     */
    @Test
    void aWaiterJoiningWhileTheSubscriptionReconnectsOpensNoStrayConnection() throws Exception {
        DistLock holderOfA = clientAt(node.address()).get("rejoin-a");
        DistLock holderOfB = clientAt(node.address()).get("rejoin-b");
        // A long retry pause: the second waiter surely joins while the subscriber waits to reconnect.
        PubSubLocks waiters = client(RedisNode.newClient(node.address()),
                LockOptions.defaults().withSpinInterval(Duration.ofSeconds(1)));
        try (LockThread holding = new LockThread("rejoin-holder"); LockThread first = new LockThread("rejoin-first");
             LockThread second = new LockThread("rejoin-second")) {
            assertTrue(holding.call(() -> holderOfA.tryLock(Duration.ZERO, null) && holderOfB.tryLock(Duration.ZERO, null)));
            Future<Boolean> waitingForA = first.submit(() -> waiters.get("rejoin-a").tryLock(WAIT, null));
            Await.until("the first waiter subscribes", WAIT, () -> Probe.subscribers(node, Probe.channel("rejoin-a")) == 1);
            node.killClients("pubsub");
            String subscriberThread = "lockstep-subscriber-" + waiters.clientId().substring(0, 8);
            Await.until("the subscriber pauses before reconnecting", WAIT, () -> pausing(subscriberThread));
            Future<Boolean> waitingForB = second.submit(() -> waiters.get("rejoin-b").tryLock(WAIT, null));
            Await.until("both channels are subscribed again", WAIT,
                    () -> Probe.subscribers(node, Probe.channel("rejoin-a")) == 1
                            && Probe.subscribers(node, Probe.channel("rejoin-b")) >= 1);
            assertEquals(1, Probe.subscribers(node, Probe.channel("rejoin-b")), "a stray connection subscribed too");
            holding.run(() -> {
                holderOfA.unlock();
                holderOfB.unlock();
            });
            assertTrue(LockThread.get(waitingForA, WAIT) && LockThread.get(waitingForB, WAIT));
            first.run(() -> waiters.get("rejoin-a").unlock());
            second.run(() -> waiters.get("rejoin-b").unlock());
        }
        waiters.close();
        Await.until("no subscription outlives the client", WAIT, () -> Probe.serverChannels(node).isEmpty());
    }

    /**
     * Redis dies under a waiter, and a second waiter joins while the subscriber waits to reconnect.
     * Subscribing it must not be tried on the dead connection (that write fails, after the waiter
     * was counted in, and the channel would stay wanted forever): it is subscribed when Redis is
     * back, and when both waiters are done no channel stays subscribed.
     */
    @Test
    void aWaiterJoiningWhileRedisIsDownLeavesNoSubscriptionBehind() throws Exception {
        RedisNode restarted = fixture.start();
        Probe.warmScripts(restarted);
        DistLock holder = clientAt(restarted.address()).get("down-a");
        PubSubLocks waiters = client(RedisNode.newClient(restarted.address()),
                LockOptions.defaults().withSpinInterval(Duration.ofSeconds(1)));
        try (LockThread first = new LockThread("down-first"); LockThread second = new LockThread("down-second")) {
            assertTrue(holder.tryLock(Duration.ZERO, null));
            Future<Boolean> waitingForA = first.submit(() -> waiters.get("down-a").tryLock(WAIT, null));
            Await.until("the first waiter sleeps on the channel", WAIT, () -> asleep(first));
            restarted.kill();
            String subscriberThread = "lockstep-subscriber-" + waiters.clientId().substring(0, 8);
            Await.until("the subscriber pauses before reconnecting", WAIT, () -> pausing(subscriberThread));
            Future<Boolean> waitingForB = second.submit(() -> waiters.get("down-b").tryLock(WAIT, null));
            Await.until("the second waiter waits", WAIT, () -> waitingForB.isDone()
                    || second.thread().getState() == Thread.State.TIMED_WAITING);
            restarted.start();
            // Restarted empty: both locks are free, and both waiters take them once subscribed again.
            assertTrue(LockThread.get(waitingForA, WAIT), "the first waiter never got its lock");
            assertTrue(LockThread.get(waitingForB, WAIT), "the second waiter never got its lock");
            first.run(() -> waiters.get("down-a").unlock());
            second.run(() -> waiters.get("down-b").unlock());
        }
        Await.until("no channel stays subscribed once nobody waits", WAIT,
                () -> waiters.subscribedChannels().isEmpty() && Probe.serverChannels(restarted).isEmpty());
    }

    /**
     * Redis stays down while a waiter's subscriber retries every spin interval: the outage is
     * logged at WARN once, not once per retry, and once more for the next outage after it is back.
     */
    @Test
    void aSubscriptionOutageIsLoggedOncePerCauseNotPerRetry() throws Exception {
        // With AOF the lock outlives the restart, so the waiter stays subscribed for the second outage.
        RedisNode down = fixture.start(new NodeConfig(true));
        Probe.warmScripts(down);
        DistLock holder = clientAt(down.address()).get("logged");
        PubSubLocks waiters = client(RedisNode.newClient(down.address()),
                LockOptions.defaults().withSpinInterval(Duration.ofMillis(100)));
        String subscriber = "lockstep-subscriber-" + waiters.clientId().substring(0, 8);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        // slf4j-simple writes to whatever System.err is at the time.
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (LockThread waiting = new LockThread("logged")) {
            assertTrue(holder.tryLock(Duration.ZERO, null));
            Future<Boolean> taking = waiting.submit(() -> waiters.get("logged").tryLock(WAIT, null));
            Await.until("the waiter sleeps on the channel", WAIT, () -> asleep(waiting));
            down.kill();
            // About ten retry pauses with Redis down.
            Thread.sleep(1000);
            long warnedWhileDown = warnings(captured, subscriber);
            down.start();
            Await.until("the waiter subscribes again, or stops waiting", WAIT,
                    () -> taking.isDone() || Probe.subscribers(down, Probe.channel("logged")) == 1);
            assertFalse(taking.isDone(), () -> "the waiter stopped waiting: " + outcome(taking));
            down.killClients("pubsub");
            Await.until("the next outage is logged", WAIT, () -> warnings(captured, subscriber) == warnedWhileDown + 1);
            // About ten retries; a few causes (the end of the stream, a stale pooled connection, refusals).
            assertTrue(warnedWhileDown >= 1 && warnedWhileDown <= 3, "the outage was logged " + warnedWhileDown
                    + " times: " + captured.toString(StandardCharsets.UTF_8));
            assertFalse(taking.isDone(), "the waiter left a lock that is still held");
            waiting.thread().interrupt();
        } finally {
            System.setErr(stderr);
        }
    }

    private static String outcome(Future<Boolean> done) {
        try {
            return String.valueOf(done.get());
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static long warnings(ByteArrayOutputStream captured, String subscriber) {
        return captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains(" WARN ") && line.contains("subscription on " + subscriber + " failed"))
                .count();
    }

    /**
     * Whether {@code waiter} sleeps on a release channel: subscribed, and refused after subscribing.
     * Only then may a fault hit Redis under it; earlier, it would hit the waiter's own tries.
     */
    private static boolean asleep(LockThread waiter) {
        return Arrays.stream(waiter.thread().getStackTrace()).anyMatch(frame ->
                frame.getClassName().equals(Subscriber.class.getName()) && frame.getMethodName().equals("sleep"));
    }

    /** Whether the thread called {@code name} sleeps, as the subscriber does in its pause before reconnecting. */
    private static boolean pausing(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(name) && t.getState() == Thread.State.TIMED_WAITING);
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
            Await.until("the waiter sleeps on the channel", WAIT, () -> asleep(thread));
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
