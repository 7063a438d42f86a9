package dev.lockstep.v5;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.RedisUnreachableException;
import dev.lockstep.internal.Patience;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.NodeConfig;
import dev.lockstep.testkit.fixture.RedisClusterFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.v5.internal.Subscriber;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.JedisClusterCRC16;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Error replies that say "not now": a master demoted to a replica (a client still writes to it
 * after a failover), a server busy with a long script, a cluster node that serves no slot yet, a
 * slot being migrated. A wait rides them out as it rides out a lost connection, and takes the lock
 * once the server serves again; a wait whose patience runs out reports Redis unreachable, not a
 * refusal to fix in the configuration.
 */
class TransientErrorTest extends OneNodeTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Retries every 500 ms, and rides out 5 s of failing attempts: room for a busy machine to heal the fault. */
    private static final LockOptions PATIENT = LockOptions.defaults().withSpinInterval(Duration.ofMillis(500));

    @Test
    void aWaitOnADemotedMasterRetriesAndTakesTheLockOncePromoted() throws Exception {
        RedisNode demoted = demotedMaster();
        DistLock lock = client(demoted.newClient(), PATIENT).get("demoted");
        try (LockThread thread = new LockThread("demoted")) {
            Future<Boolean> taking = thread.submit(() -> lock.tryLock(WAIT, null));
            awaitRetrying(thread, taking);
            demoted.promote();
            assertTrue(LockThread.get(taking, WAIT), "the wait ended without the lock");
            thread.run(lock::unlock);
        }
    }

    @Test
    void aWaitOnADemotedMasterThatStaysOneEndsUnreachable() throws Exception {
        DistLock lock = client(demotedMaster().newClient()).get("stays-demoted");
        try (LockThread thread = new LockThread("stays-demoted")) {
            RedisUnreachableException unreachable = assertThrows(RedisUnreachableException.class,
                    () -> thread.call(() -> lock.tryLock(WAIT, null)),
                    "a replica's READONLY is an outage to wait out, not a refusal");
            assertTrue(unreachable.getMessage().contains("READONLY"), unreachable.getMessage());
        }
    }

    @Test
    void aWaitOnAServerBusyWithAScriptRetriesAndTakesTheLockOnceTheScriptIsKilled() throws Exception {
        RedisNode busy = fixture.start(NodeConfig.defaults().withArgs("--lua-time-limit", "100"));
        DistLock lock = client(busy.newClient(), PATIENT).get("busy");
        try (LockThread looping = new LockThread("busy-script"); LockThread thread = new LockThread("busy")) {
            Future<Object> script = looping.submit(() -> {
                try (Jedis jedis = new Jedis(busy.address(), busyClientConfig())) {
                    return jedis.eval("while true do end");
                }
            });
            Future<Boolean> taking;
            try {
                Await.until("the server answers BUSY", WAIT, () -> answersBusy(busy));
                taking = thread.submit(() -> lock.tryLock(WAIT, null));
                awaitRetrying(thread, taking);
            } finally {
                try (Jedis admin = busy.admin()) {
                    admin.scriptKill();
                }
            }
            assertThrows(JedisDataException.class, () -> LockThread.get(script, WAIT), "the looping script was not killed");
            assertTrue(LockThread.get(taking, WAIT), "the wait ended without the lock");
            thread.run(lock::unlock);
        }
    }

    @Test
    void aWaitOnAClusterNodeThatServesNoSlotYetRetriesAndTakesTheLockOnceItDoes() throws Exception {
        RedisNode unassigned = fixture.start(NodeConfig.defaults().withCluster());
        DistLock lock = client(unassigned.newClient(), PATIENT).get("clusterdown");
        try (LockThread thread = new LockThread("clusterdown")) {
            Future<Boolean> taking = thread.submit(() -> lock.tryLock(WAIT, null));
            awaitRetrying(thread, taking);
            try (Jedis admin = unassigned.admin()) {
                admin.clusterAddSlots(IntStream.range(0, RedisClusterFixture.SLOTS).toArray());
            }
            assertTrue(LockThread.get(taking, WAIT), "the wait ended without the lock");
            thread.run(lock::unlock);
        }
    }

    /**
     * TRYAGAIN comes from a slot in migration when a request names several keys and some are
     * missing; stage 5 takes a lock with one key, so this checks the classification of the reply
     * a real node gives: a node importing a slot, asked with ASKING for two missing keys in it.
     */
    @Test
    void aSlotInMigrationsTryAgainCountsAsUnreachable() {
        RedisNode owner = fixture.start(NodeConfig.defaults().withCluster());
        RedisNode importer = fixture.start(NodeConfig.defaults().withCluster());
        try (Jedis onOwner = owner.admin(); Jedis onImporter = importer.admin()) {
            onOwner.clusterAddSlots(IntStream.range(0, RedisClusterFixture.SLOTS).toArray());
            onImporter.clusterMeet(owner.address().getHost(), owner.address().getPort());
            String ownerId = onOwner.clusterMyId();
            Await.until("the importer sees every slot served", WAIT,
                    () -> onImporter.clusterInfo().contains("cluster_state:ok"));
            int slot = JedisClusterCRC16.getSlot("{moving}");
            onImporter.clusterSetSlotImporting(slot, ownerId);
            onImporter.asking();
            JedisDataException tryAgain = assertThrows(JedisDataException.class,
                    () -> onImporter.eval("return 1", 2, "{moving}a", "{moving}b"));
            assertTrue(tryAgain.getMessage().startsWith("TRYAGAIN"), tryAgain.getMessage());
            assertTrue(Patience.unreachable(tryAgain), "TRYAGAIN is not taken as transient: " + tryAgain);
            assertFalse(Patience.refused(tryAgain), "TRYAGAIN is taken as a refusal: " + tryAgain);
        }
    }

    /** A node that was a master and is now a replica of the class's node, as after a failover that demoted it. */
    private RedisNode demotedMaster() {
        RedisNode demoted = fixture.start();
        Probe.warmScripts(demoted);
        try (Jedis admin = demoted.admin()) {
            admin.replicaof(node.address().getHost(), node.address().getPort());
        }
        return demoted;
    }

    /**
     * Waits until the waiter waits on the subscriber, where it gets only when its first attempt's
     * failure was taken as passing; an attempt taken as a refusal ends the call instead.
     */
    private static void awaitRetrying(LockThread waiter, Future<Boolean> taking) throws Exception {
        Await.until("the waiter retries, or its call ends", WAIT, () -> taking.isDone()
                || Arrays.stream(waiter.thread().getStackTrace())
                        .anyMatch(frame -> frame.getClassName().equals(Subscriber.class.getName())));
        if (taking.isDone()) {
            LockThread.get(taking, WAIT);
        }
        assertFalse(taking.isDone(), "the wait ended at the first transient error");
    }

    private static boolean answersBusy(RedisNode node) {
        try (Jedis probe = node.admin()) {
            probe.ping();
            return false;
        } catch (JedisBusyException e) {
            return true;
        }
    }

    /** The looping script's connection: no read timeout, since its reply comes only when the script is killed. */
    private static JedisClientConfig busyClientConfig() {
        return DefaultJedisClientConfig.builder().socketTimeoutMillis(0).build();
    }
}
