package dev.lockstep.testkit.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * {@link FaultyLink} in front of a real redis-server. The tests run side by side: each has a link
 * of its own, and its threads are told apart by the link's port.
 */
@Execution(ExecutionMode.CONCURRENT)
class FaultyLinkTest extends SingleNodeTest {

    @Test
    void forwardsCommandsAndRepliesBothWays() {
        try (FaultyLink link = FaultyLink.to(node.address());
             RedisClient client = RedisNode.newClient(link.address())) {
            assertEquals("127.0.0.1", link.address().getHost());
            assertTrue(link.address().getPort() != node.address().getPort());
            assertEquals("PONG", client.ping());
            assertEquals("OK", client.set("faultylink:forward", "through the link"));
            assertEquals("through the link", client.get("faultylink:forward"));
            try (Jedis direct = node.admin()) {
                assertEquals("through the link", direct.get("faultylink:forward"), "the write reached the real node");
            }
        }
    }

    @Test
    void blackholeTimesOutOnlyThatClientAndHealRestoresConnections() {
        try (FaultyLink link = FaultyLink.to(node.address());
             RedisClient client = RedisNode.newClient(link.address())) {
            assertEquals("OK", client.set("faultylink:blackhole", "before"));

            link.blackhole();
            Await.assertTimesOut(client::ping);
            try (RedisClient fresh = RedisNode.newClient(link.address())) {
                Await.assertTimesOut(fresh::ping); // new connections are accepted, but nothing flows
            }
            try (Jedis direct = node.admin()) {
                assertEquals("PONG", direct.ping(), "only clients behind the link are partitioned");
            }

            link.heal();
            assertEquals("before", client.get("faultylink:blackhole")); // the pool replaced its broken connection
            try (RedisClient fresh = RedisNode.newClient(link.address())) {
                assertEquals("PONG", fresh.ping());
            }
        }
    }

    @Test
    void healResetsConnectionsThatLostBytesAndKeepsIntactOnes() throws IOException {
        try (FaultyLink link = FaultyLink.to(node.address());
             Socket intact = connect(link.address());
             Socket damaged = connect(link.address())) {
            assertEquals("+PONG", roundTrip(intact, "PING"));
            assertEquals("+PONG", roundTrip(damaged, "PING"));

            link.blackhole();
            send(damaged, "PING");
            damaged.setSoTimeout(500);
            assertThrows(SocketTimeoutException.class, () -> damaged.getInputStream().read(), "blackholed reply");

            link.heal();
            damaged.setSoTimeout(5000);
            assertConnectionEnds(damaged);
            assertEquals("+PONG", roundTrip(intact, "PING"), "a connection that lost nothing keeps working");
        }
    }

    @Test
    void delayAddsAtLeastTheDelayToARoundTrip() {
        Duration delay = Duration.ofMillis(150);
        try (FaultyLink link = FaultyLink.to(node.address());
             RedisClient client = RedisNode.newClient(link.address())) {
            assertEquals("PONG", client.ping()); // connect first: only the round trip is measured

            link.delay(delay);
            long start = System.nanoTime();
            assertEquals("PONG", client.ping());
            Duration delayed = Duration.ofNanos(System.nanoTime() - start);
            // The request and the reply are each delayed.
            assertTrue(delayed.compareTo(delay.multipliedBy(2)) >= 0, "round trip with delay took " + delayed);

            link.heal();
            start = System.nanoTime();
            assertEquals("PONG", client.ping());
            Duration healed = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(healed.compareTo(delay) < 0, "round trip after heal took " + healed);
        }
    }

    /**
     * Messages published 150 ms apart each reach a subscriber behind a 200 ms delay 200 ms after
     * they were sent, as on a long wire. A link that slept out the delay per chunk read would send a
     * message that came in during that sleep only a full delay after the sleep: each one 50 ms later
     * than the one before, 650 ms late by the tenth.
     */
    @Test
    void aDelayIsALagNotAQueueOfDelays() throws Exception {
        Duration delay = Duration.ofMillis(200);
        int messages = 10;
        long[] published = new long[messages];
        long[] heard = new long[messages];
        CountDownLatch allHeard = new CountDownLatch(messages);
        try (FaultyLink link = FaultyLink.to(node.address());
             Jedis subscriber = new Jedis(link.address());
             Jedis direct = node.admin()) {
            JedisPubSub listener = new JedisPubSub() {
                @Override
                public void onMessage(String channel, String message) {
                    heard[Integer.parseInt(message)] = System.nanoTime();
                    allHeard.countDown();
                }
            };
            subscribeInBackground(subscriber, listener, "faultylink:lag", direct);
            link.delay(delay);
            for (int i = 0; i < messages; i++) {
                published[i] = System.nanoTime();
                direct.publish("faultylink:lag", Integer.toString(i));
                Thread.sleep(150);
            }
            assertTrue(allHeard.await(5, TimeUnit.SECONDS), "not every message arrived");
            for (int i = 0; i < messages; i++) {
                Duration late = Duration.ofNanos(heard[i] - published[i]);
                assertTrue(late.compareTo(delay) >= 0 && late.compareTo(delay.multipliedBy(2)) < 0,
                        "message " + i + " arrived " + late.toMillis() + " ms after it was published");
            }
        }
    }

    @Test
    void closeEndsTheListenerEveryConnectionAndEveryThread() throws IOException {
        FaultyLink link = FaultyLink.to(node.address());
        HostAndPort address = link.address();
        String prefix = "lockstep-faultylink-" + address.getPort() + "-";
        try (Socket idle = connect(address); Socket busy = connect(address)) {
            assertEquals("+PONG", roundTrip(idle, "PING")); // its readers now block in read()
            assertEquals("+PONG", roundTrip(busy, "PING"));
            // A forwarder asleep in a long delay must not hold close() up either.
            link.delay(Duration.ofSeconds(30));
            send(busy, "PING");
            Await.until("accept thread, a reader each way per connection, and the delayed PING's forwarder",
                    Duration.ofSeconds(5), () -> Threads.named(prefix).size() == 6);

            long start = System.nanoTime();
            link.close();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(Duration.ofSeconds(2)) < 0, "close() took " + took);

            Await.until("no " + prefix + " thread alive", Duration.ofSeconds(2), () -> Threads.named(prefix).isEmpty());
            idle.setSoTimeout(5000);
            assertConnectionEnds(idle);
            busy.setSoTimeout(5000);
            assertConnectionEnds(busy);
            assertThrows(ConnectException.class, () -> connect(address).close(), "listener closed");
            link.close(); // idempotent
        } finally {
            link.close();
        }
    }

    /** The proxy closed this connection: EOF or a reset, not a reply and not a timeout. */
    private static void assertConnectionEnds(Socket socket) {
        try {
            assertEquals(-1, socket.getInputStream().read(), "expected the connection to be closed");
        } catch (SocketTimeoutException e) {
            fail("connection still open", e);
        } catch (SocketException e) {
            // Connection reset: ended as well.
        } catch (IOException e) {
            fail(e);
        }
    }

    /** Subscribes {@code subscriber} to {@code channel} on a thread of its own, and waits until {@code direct} sees it. */
    private static void subscribeInBackground(Jedis subscriber, JedisPubSub listener, String channel, Jedis direct) {
        Thread reader = new Thread(() -> {
            try {
                subscriber.subscribe(listener, channel);
            } catch (JedisConnectionException closedAtTheEnd) {
                // The test closes the subscriber's connection when it is done.
            }
        }, "lockstep-test-reader");
        reader.setDaemon(true);
        reader.start();
        Await.until("the subscription is on", Duration.ofSeconds(5),
                () -> direct.pubsubNumSub(channel).get(channel) == 1);
    }

    private static Socket connect(HostAndPort address) throws IOException {
        Socket socket = new Socket(address.getHost(), address.getPort());
        socket.setSoTimeout(5000);
        return socket;
    }

    private static void send(Socket socket, String inlineCommand) throws IOException {
        socket.getOutputStream().write((inlineCommand + "\r\n").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    /** Sends an inline command and reads one simple-string reply line. */
    private static String roundTrip(Socket socket, String inlineCommand) throws IOException {
        send(socket, inlineCommand);
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c == -1) {
                fail("connection closed before a reply to " + inlineCommand);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Test
    void lostRepliesLeaveTheRequestRunAndTheClientUninformed() {
        try (FaultyLink link = FaultyLink.to(node.address());
             RedisClient client = RedisNode.newClient(link.address());
             Jedis direct = node.admin()) {
            assertEquals("PONG", client.ping());
            link.loseReplies();
            assertThrows(JedisConnectionException.class, () -> client.set("faultylink:lost-reply", "ran"));
            assertEquals("ran", direct.get("faultylink:lost-reply"), "the server ran the request");
            link.heal();
            assertEquals("ran", client.get("faultylink:lost-reply"), "healed, the link forwards replies again");
        }
    }

    @Test
    void aFrozenSubscriberHearsNothingWhileOtherConnectionsWork() throws Exception {
        try (FaultyLink link = FaultyLink.to(node.address());
             Jedis subscriber = new Jedis(link.address());
             RedisClient client = RedisNode.newClient(link.address());
             Jedis direct = node.admin()) {
            List<String> heard = new CopyOnWriteArrayList<>();
            JedisPubSub listener = new JedisPubSub() {
                @Override
                public void onMessage(String channel, String message) {
                    heard.add(message);
                }
            };
            subscribeInBackground(subscriber, listener, "faultylink:channel", direct);
            direct.publish("faultylink:channel", "before");
            Await.until("the first message arrives", Duration.ofSeconds(5), () -> heard.contains("before"));
            link.freezeSubscribers();
            direct.publish("faultylink:channel", "after");
            assertEquals("PONG", client.ping(), "a connection that never subscribed is not frozen");
            assertEquals(1L, direct.pubsubNumSub("faultylink:channel").get("faultylink:channel"),
                    "a frozen connection stays open: the server still counts the subscriber");
            assertEquals(List.of("before"), heard, "a frozen connection delivered a message");
        }
    }

    /** On a node of its own: the kill would drop the other tests' subscribers too. */
    @Test
    void killClientsDropsOnlyThatTypeOfConnection() throws Exception {
        RedisNode ownNode = fixture.start();
        try (RedisClient client = RedisNode.newClient(ownNode.address());
             Jedis subscriber = new Jedis(ownNode.address())) {
            assertEquals("PONG", client.ping());
            Thread reader = new Thread(() -> {
                try {
                    subscriber.subscribe(new JedisPubSub() { }, "faultylink:kill");
                } catch (JedisConnectionException expected) {
                    // Killed: the read loop ends.
                }
            }, "lockstep-test-killed");
            reader.setDaemon(true);
            reader.start();
            try (Jedis direct = ownNode.admin()) {
                Await.until("the subscription is on", Duration.ofSeconds(5),
                        () -> direct.pubsubNumSub("faultylink:kill").get("faultylink:kill") == 1);
            }
            assertEquals(1, ownNode.killClients("pubsub"));
            reader.join(5_000);
            assertTrue(!reader.isAlive(), "the killed subscriber's read loop went on");
            assertEquals("PONG", client.ping(), "a normal connection survived a pubsub kill");
        }
    }
}
