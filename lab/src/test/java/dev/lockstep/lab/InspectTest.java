package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.LockHold;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.fair.FairLocks;
import dev.lockstep.multi.MultiNameLocks;
import dev.lockstep.rw.ReadWriteLocks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.testkit.interop.RedissonClients;
import dev.lockstep.v1.SetnxLocks;
import dev.lockstep.v2.OwnerCheckLocks;
import dev.lockstep.v3.ReentrantHashLocks;
import dev.lockstep.v5.PubSubLocks;
import dev.lockstep.v7.FencedLocks;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;
import picocli.CommandLine;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/** {@code lab inspect} on a live lock of each kind, Lockstep's and Redisson's: who holds it, how often, who waits. */
class InspectTest extends SingleNodeTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private String read(String name) {
        try (RedisClient redis = node.newClient()) {
            return String.join("\n", LockDescription.of(LockSnapshot.read(redis, name)));
        }
    }

    private static void assertSays(String reading, String... facts) {
        for (String fact : facts) {
            assertTrue(reading.contains(fact), "expected '" + fact + "' in:\n" + reading);
        }
    }

    private String thisThread() {
        return "thread " + Thread.currentThread().getId();
    }

    /** What {@code lab args...} prints; its exit status must be 0. */
    private static String lab(String... args) {
        StringWriter printed = new StringWriter();
        CommandLine lab = new CommandLine(new Lab());
        lab.setOut(new PrintWriter(printed));
        int status = lab.execute(args);
        assertEquals(0, status, printed.toString());
        return printed.toString();
    }

    private static String url(String userInfo) {
        return "redis://" + userInfo + node.address().getHost() + ":" + node.address().getPort();
    }

    @Test
    void aFreeNameIsNotHeld() {
        assertSays(read("nobody-holds-this"), "not held");
    }

    @Test
    void stagesOneAndTwoShowTheirValueAndLease() {
        closedAfter(new SetnxLocks(closedAfter(node.newClient()), LockOptions.defaults())).get("inspect-v1").lock();
        assertSays(read("inspect-v1"), "value '1' (stage 1): it does not say who holds it", "lease left: ");
        closedAfter(new OwnerCheckLocks(closedAfter(node.newClient()), LockOptions.defaults())).get("inspect-v2").lock();
        assertSays(read("inspect-v2"), "owner token (stage 2)", "held by: the holder of token '", "lease left: ");
    }

    @Test
    void stageThreeShowsItsHolderAndItsHoldCount() {
        Locks locks = closedAfter(new ReentrantHashLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        DistLock lock = locks.get("inspect-v3");
        lock.lock();
        lock.lock();
        assertSays(read("inspect-v3"), "kind: reentrant hash",
                "held by client " + locks.clientId() + ", " + thisThread() + ": hold count 2", "lease left: ");
        assertFalse(read("inspect-v3").contains("fencing"), read("inspect-v3"));
        lock.unlock();
        lock.unlock();
        assertSays(read("inspect-v3"), "not held");
    }

    @Test
    void stageFiveShowsAHoldOfNoThreadAsItsHandle() throws Exception {
        Locks locks = closedAfter(new PubSubLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        LockHold hold = locks.get("inspect-handle").tryAcquire(Duration.ZERO, null).orElseThrow();
        assertSays(read("inspect-handle"), "held by client " + locks.clientId() + ", hold handle ",
                "(held for no thread): hold count 1");
        hold.release();
    }

    @Test
    void stageSevenShowsItsSlotsFencingCounter() {
        FencedLocks locks = closedAfter(new FencedLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        FencedLock lock = locks.get("inspect-v7");
        long token = lock.lockAndGetToken();
        assertSays(read("inspect-v7"), "held by client " + locks.clientId() + ", " + thisThread() + ": hold count 1",
                "fencing: stage 7's counter of the name's slot last handed out token " + token);
        lock.unlock();
    }

    @Test
    void aFairLockShowsItsWaitersInOrder() throws Exception {
        Locks locks = closedAfter(new FairLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        Locks waiting = closedAfter(new FairLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        DistLock lock = locks.get("inspect-fair");
        lock.lock();
        try (LockThread waiter = new LockThread("waiter")) {
            Future<Boolean> waited = waiter.submit(() -> waiting.get("inspect-fair").tryLock(WAIT, null));
            Await.until("the waiter queues", WAIT, () -> read("inspect-fair").contains("waiting: 1"));
            assertSays(read("inspect-fair"), "kind: fair lock", "held by client " + locks.clientId() + ", " + thisThread(),
                    "1. client " + waiting.clientId() + ", thread " + waiter.threadId() + ": keeps its place for ");
            lock.unlock();
            assertTrue(LockThread.get(waited, WAIT));
            waiter.run(() -> waiting.get("inspect-fair").unlock());
        }
    }

    @Test
    void aReadWriteLockShowsItsReadersWithTheirLeasesOrItsWriter() throws Exception {
        ReadWriteLocks locks = closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        ReadWriteDistLock lock = locks.get("inspect-rw");
        String client = "client " + locks.clientId();
        try (LockThread other = new LockThread("other reader")) {
            lock.readLock().lock();
            lock.readLock().lock();
            other.run(() -> lock.readLock().lock());
            assertSays(read("inspect-rw"), "mode read", "writer: none",
                    "read by " + client + ", " + thisThread() + ": 2 read holds, lease left ",
                    "read by " + client + ", thread " + other.threadId() + ": 1 read hold, lease left ");
            other.run(() -> lock.readLock().unlock());
            lock.readLock().unlock();
            lock.readLock().unlock();
        }
        lock.writeLock().lock();
        assertSays(read("inspect-rw"), "mode write", "written by " + client + ", " + thisThread() + ": hold count 1",
                "readers: none");
        lock.writeLock().unlock();
    }

    @Test
    void severalNamesShowWhoHoldsThemAll() {
        MultiNameLocks locks = closedAfter(new MultiNameLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        DistLock both = locks.getAll("inspect-stock", "inspect-account");
        both.lock();
        String printed = lab("inspect", "inspect-stock", "inspect-account", "--redis", url(""));
        assertSays(printed, "lock 'inspect-stock' on redis://", "lock 'inspect-account' on redis://",
                "all 2 names are held by client " + locks.clientId() + ", " + thisThread());
        both.unlock();
        assertSays(lab("inspect", "inspect-stock", "inspect-account", "--redis", url("")), "no one owner holds all 2 names");
    }

    @Test
    void theCommandOnlyReads() throws Exception {
        // A user who may run no command that writes: the command must still tell the whole story.
        try (Jedis admin = node.admin()) {
            admin.aclSetUser("inspector", "on", ">only-reads", "~*", "&*",
                    "+@read", "+@connection", "+time");
        }
        ReadWriteLocks locks = closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        locks.get("inspect-read-only").readLock().lock();
        String printed = lab("inspect", "inspect-read-only", "--url", url("inspector:only-reads@"));
        assertSays(printed, "on redis://inspector:***@", "read by client " + locks.clientId(), "lease left ");
        locks.get("inspect-read-only").readLock().unlock();
    }

    @Test
    void redissonsLocksReadAsOurs() throws Exception {
        RedissonClient redisson = RedissonClients.single(node.address());
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            RLock plain = redisson.getLock("inspect-rlock");
            holder.run(plain::lock);
            holder.run(plain::lock);
            assertSays(read("inspect-rlock"), "kind: reentrant hash", "thread " + holder.threadId() + ": hold count 2");
            holder.run(plain::unlock);
            holder.run(plain::unlock);

            RLock fair = redisson.getFairLock("inspect-rfair");
            holder.run(fair::lock);
            Future<Boolean> queued = waiter.submit(() -> fair.tryLock(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            Await.until("Redisson's waiter queues", WAIT, () -> read("inspect-rfair").contains("waiting: 1"));
            assertSays(read("inspect-rfair"), "kind: fair lock", "thread " + holder.threadId() + ": hold count 1",
                    "1. client ", "thread " + waiter.threadId() + ": keeps its place for ");
            holder.run(fair::unlock);
            assertTrue(LockThread.get(queued, WAIT));
            waiter.run(fair::unlock);

            RReadWriteLock readWrite = redisson.getReadWriteLock("inspect-rrw");
            holder.run(() -> readWrite.readLock().lock());
            waiter.run(() -> readWrite.readLock().lock());
            assertSays(read("inspect-rrw"), "mode read", "writer: none",
                    "thread " + holder.threadId() + ": 1 read hold, lease left ",
                    "thread " + waiter.threadId() + ": 1 read hold, lease left ");
            holder.run(() -> readWrite.readLock().unlock());
            waiter.run(() -> readWrite.readLock().unlock());
            holder.run(() -> readWrite.writeLock().lock());
            assertSays(read("inspect-rrw"), "mode write", "thread " + holder.threadId() + ": hold count 1", "readers: none");
            holder.run(() -> readWrite.writeLock().unlock());
        } finally {
            redisson.shutdown();
        }
    }
}
