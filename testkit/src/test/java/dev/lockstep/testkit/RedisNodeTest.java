package dev.lockstep.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/** Fault injection on real redis-server processes. */
class RedisNodeTest {

    private static final Duration REPLICATION = Duration.ofSeconds(10);

    private static RedisFixture fixture;

    @BeforeAll
    static void startFixture() {
        fixture = RedisFixture.processes();
    }

    @AfterAll
    static void stopFixture() {
        fixture.close();
    }

    @Test
    void killedNodeFailsClientsAndStartServesAgainEmpty() {
        try (RedisNode node = fixture.start();
             RedisClient client = node.newClient()) {
            assertEquals("OK", client.set("node:kill", "v"));

            node.kill();
            assertThrows(JedisConnectionException.class, client::ping);
            try (RedisClient fresh = node.newClient()) {
                assertThrows(JedisConnectionException.class, fresh::ping, "nothing listens on the port");
            }

            node.start();
            try (RedisClient fresh = node.newClient()) {
                assertEquals("PONG", fresh.ping());
                assertNull(fresh.get("node:kill"));
                assertEquals(0, fresh.dbSize());
            }
        }
    }

    @Test
    void withAofAnAcknowledgedWriteSurvivesRestart() {
        try (RedisNode node = fixture.start(NodeConfig.defaults().withAof())) {
            try (Jedis admin = node.admin()) {
                assertEquals("OK", admin.set("node:aof", "kept"));
            }
            node.restart();
            try (Jedis admin = node.admin()) {
                assertEquals("kept", admin.get("node:aof"));
            }
        }
    }

    @Test
    void withoutAofRestartComesBackEmpty() {
        try (RedisNode node = fixture.start()) {
            try (Jedis admin = node.admin()) {
                assertEquals("OK", admin.set("node:no-aof", "lost"));
            }
            node.restart();
            try (Jedis admin = node.admin()) {
                assertNull(admin.get("node:no-aof"));
                assertEquals(0, admin.dbSize());
            }
        }
    }

    @Test
    void pausedNodeTimesOutAndAnswersAfterResume() {
        try (RedisNode node = fixture.start();
             RedisClient client = node.newClient()) {
            assertEquals("PONG", client.ping());
            node.pause();
            try {
                Await.assertTimesOut(client::ping);
            } finally {
                node.resume();
            }
            assertEquals("PONG", client.ping());
        }
    }

    @Test
    void replicaStopsReceivingWritesWhenBlackholedAndPromotionKeepsWhatItHad() {
        try (RedisNode master = fixture.start();
             RedisNode replica = fixture.start();
             RedisClient onMaster = master.newClient();
             RedisClient onReplica = replica.newClient()) {
            FaultyLink link = replica.replicaOf(master);
            assertEquals("OK", onMaster.set("repl:before", "1"));
            awaitEquals("1", () -> onReplica.get("repl:before"), REPLICATION);
            assertThrows(JedisDataException.class, () -> onReplica.set("repl:direct", "x"), "a replica is read-only");

            link.blackhole();
            assertEquals("OK", onMaster.set("repl:during", "2"));
            assertStaysNull(() -> onReplica.get("repl:during"), Duration.ofMillis(500));

            replica.promote();
            assertEquals("OK", onReplica.set("repl:direct", "x"), "a promoted replica takes writes");
            assertEquals("1", onReplica.get("repl:before"));
            assertNull(onReplica.get("repl:during"), "the write made during the blackhole never arrived");
        }
    }

    @Test
    void healedReplicationLinkCatchesUpOnWritesMadeDuringTheBlackhole() {
        try (RedisNode master = fixture.start();
             RedisNode replica = fixture.start();
             RedisClient onMaster = master.newClient();
             RedisClient onReplica = replica.newClient()) {
            FaultyLink link = replica.replicaOf(master);
            assertEquals("OK", onMaster.set("heal:before", "1"));
            awaitEquals("1", () -> onReplica.get("heal:before"), REPLICATION);

            link.blackhole();
            assertEquals("OK", onMaster.set("heal:during", "2"));
            assertStaysNull(() -> onReplica.get("heal:during"), Duration.ofMillis(300));

            link.heal();
            assertEquals("OK", onMaster.set("heal:after", "3"));
            awaitEquals("3", () -> onReplica.get("heal:after"), REPLICATION);
            assertEquals("2", onReplica.get("heal:during"), "the replica resynced what the blackhole dropped");
        }
    }

    @Test
    void fixtureCloseLeavesNoServerRunning() {
        Set<Long> before = redisChildren();
        RedisFixture own = RedisFixture.processes();
        List<HostAndPort> addresses;
        String linkThreads;
        try {
            RedisNode master = own.start();
            RedisNode replica = own.start(NodeConfig.defaults().withAof());
            FaultyLink link = replica.replicaOf(master);
            linkThreads = "lockstep-faultylink-" + link.address().getPort() + "-";
            replica.pause(); // a stopped server must die too
            addresses = List.of(master.address(), replica.address());
        } finally {
            own.close();
        }
        Set<Long> ours = redisChildren();
        ours.removeAll(before);

        Await.until("ports " + addresses + " closed", Duration.ofSeconds(5),
                () -> addresses.stream().noneMatch(RedisNodeTest::accepts));
        Await.until("redis-server children gone", Duration.ofSeconds(5),
                () -> ours.stream().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)));
        Await.until("replication link threads ended", Duration.ofSeconds(5),
                () -> Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.isAlive() && t.getName().startsWith(linkThreads)));
    }

    @Test
    void startedServersAreChildProcessesThisTestCanSee() {
        // Guards fixtureCloseLeavesNoServerRunning: its process check is only meaningful if it sees our servers.
        Set<Long> before = redisChildren();
        try (RedisNode node = fixture.start()) {
            Set<Long> after = redisChildren();
            after.removeAll(before);
            assertEquals(1, after.size(), "new redis-server children: " + after);
        }
    }

    /**
     * A distribution's layout, as Debian and Ubuntu install Redis: {@code redis-server} is a link
     * to {@code redis-check-rdb}, which serves when started under a name containing
     * {@code redis-server}. Started from such a link, a node runs, restarts, and is seen as the
     * fixture's child: nothing may depend on the name of the file that runs.
     */
    @Test
    void aDistributionStyleLinkWorksAsTheBinary(@TempDir Path dir) throws IOException {
        // A copy, not a link: the file that runs must be called something else than redis-server.
        Path real = Files.copy(RedisBinary.get().realPath(), dir.resolve("redis-check-rdb"));
        Files.createSymbolicLink(dir.resolve("redis-server"), Path.of("redis-check-rdb"));
        RedisBinary linked = RedisBinary.at(dir.resolve("redis-server"), "a distribution-style link");
        assertEquals(RedisBinary.get().version(), linked.version());
        assertEquals(real.toRealPath(), linked.realPath());
        Set<Long> before = redisChildren(linked);
        try (RedisFixture distribution = RedisFixture.processes(linked); RedisNode node = distribution.start();
             RedisClient client = node.newClient()) {
            assertEquals("PONG", client.ping());
            Set<Long> after = redisChildren(linked);
            after.removeAll(before);
            assertEquals(1, after.size(), "new redis-server children: " + after);
            node.restart();
            Await.until("the restarted node answers", Duration.ofSeconds(10), () -> RedisNode.answersPing(node.address()));
        }
    }

    private static Set<Long> redisChildren() {
        return redisChildren(RedisBinary.get());
    }

    /** This JVM's children that run {@code binary}, told by the file that runs, not by its name. */
    private static Set<Long> redisChildren(RedisBinary redis) {
        Path binary = redis.realPath();
        return ProcessHandle.current().children()
                .filter(p -> p.info().command().map(c -> Path.of(c).equals(binary)).orElse(false))
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static boolean accepts(HostAndPort address) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.getHost(), address.getPort()), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void awaitEquals(String expected, Supplier<String> actual, Duration timeout) {
        Await.until("value " + expected, timeout, () -> Objects.equals(expected, quietly(actual)));
    }

    /** Asserts the value stays absent for the whole window: a negative can only be observed over time. */
    private static void assertStaysNull(Supplier<String> actual, Duration window) {
        long end = System.nanoTime() + window.toNanos();
        while (System.nanoTime() < end) {
            assertNull(actual.get());
            Await.pause(Duration.ofMillis(20));
        }
    }

    /** A replica answers LOADING or drops connections while it syncs: that is "not yet", not a failure. */
    private static String quietly(Supplier<String> read) {
        try {
            return read.get();
        } catch (JedisException e) {
            return null;
        }
    }
}
