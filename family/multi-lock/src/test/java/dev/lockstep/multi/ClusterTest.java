package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.multi.internal.NameGroupLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisClusterFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClusterClient;

/**
 * {@link MultiNameLocks#getAll} on a real 3-master Redis Cluster: names of one hash tag in one
 * script on one master, names spread over every master in one script per slot, held, renewed and
 * released as one lock, and never held by two clients at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterTest {

    private static final Duration WATCHDOG = Duration.ofMillis(600);
    private static final LockOptions OPTIONS = LockOptions.defaults()
            .withWatchdogTimeout(WATCHDOG).withSpinInterval(Duration.ofMillis(20));

    private RedisClusterFixture cluster;
    private final List<RedisClusterClient> clients = new ArrayList<>();
    private MultiNameLocks a;
    private MultiNameLocks b;
    /** One name on each master. */
    private final List<String> spread = new ArrayList<>();

    @BeforeAll
    void startCluster() {
        cluster = RedisClusterFixture.start(3);
        a = new MultiNameLocks(client(), OPTIONS);
        b = new MultiNameLocks(client(), OPTIONS);
        for (RedisNode master : cluster.masters()) {
            for (int i = 0; ; i++) {
                String name = "spread-" + i;
                if (!spread.contains(name) && cluster.masterOfKey(name) == master) {
                    spread.add(name);
                    break;
                }
            }
        }
    }

    private RedisClusterClient client() {
        RedisClusterClient client = cluster.newClient();
        clients.add(client);
        return client;
    }

    @AfterAll
    void stopCluster() {
        a.close();
        b.close();
        clients.forEach(RedisClusterClient::close);
        cluster.close();
    }

    @Test
    void namesOfOneHashTagAreOneScriptOnOneMaster() throws Exception {
        DistLock ours = a.getAll("{order:7}stock", "{order:7}account");
        assertInstanceOf(NameGroupLock.class, ours);
        DistLock theirs = b.getAll("{order:7}account", "{order:7}invoice");
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(ours::lock);
            Future<Boolean> taken = waiter.submit(() -> theirs.tryLock(Duration.ofSeconds(20), null));
            Await.pause(WATCHDOG.multipliedBy(2));
            assertFalse(taken.isDone(), "the shared name keeps the other client out, past two leases");
            holder.run(ours::unlock);
            assertTrue(LockThread.get(taken, Duration.ofSeconds(5)), "woken by the release");
            waiter.run(theirs::unlock);
        }
        try (RedisClusterClient admin = cluster.newClient()) {
            assertFalse(admin.exists("{order:7}account"));
        }
    }

    @Test
    void namesOnEveryMasterAreHeldRenewedAndReleasedAsOne() throws Exception {
        DistLock ours = a.getAll(spread.toArray(String[]::new));
        assertInstanceOf(MultiNameLock.class, ours, "one script per slot, held together");
        DistLock theirs = b.getAll(spread.get(2), spread.get(0));
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(ours::lock);
            Future<Boolean> taken = waiter.submit(() -> theirs.tryLock(Duration.ofSeconds(20), null));
            Await.pause(WATCHDOG.multipliedBy(3));
            assertTrue(holder.call(ours::isHeldByCurrentThread), "renewed on every master past three leases");
            assertFalse(taken.isDone());
            holder.run(ours::unlock);
            assertTrue(LockThread.get(taken, Duration.ofSeconds(5)));
            waiter.run(theirs::unlock);
        }
        try (RedisClusterClient admin = cluster.newClient()) {
            for (String name : spread) {
                assertFalse(admin.exists(name), name + " outlived its unlock");
            }
        }
    }

    @Test
    void oppositeOrdersAcrossMastersNeverOverlapNorDeadlock() throws Exception {
        DistLock forward = a.getAll(spread.get(0), spread.get(1), spread.get(2));
        DistLock backward = b.getAll(spread.get(2), spread.get(1), spread.get(0));
        Sections sections = new Sections();
        try (LockThread one = new LockThread("one"); LockThread two = new LockThread("two")) {
            List<Future<Object>> runs = List.of(
                    one.submit(() -> sections.play("a", 15, forward::lock, forward::unlock)),
                    two.submit(() -> sections.play("b", 15, backward::lock, backward::unlock)));
            sections.start();
            for (Future<Object> run : runs) {
                LockThread.get(run, LockThread.DEADLINE);
            }
        }
        assertEquals(List.of(), sections.overlaps());
        assertEquals(3, new HashSet<>(spread.stream().map(cluster::masterOfKey).toList()).size());
    }
}
