package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockHold;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.fair.FairLocks;
import dev.lockstep.rw.ReadWriteLocks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.testkit.interop.RedissonClients;
import dev.lockstep.v1.SetnxLocks;
import dev.lockstep.v2.OwnerCheckLocks;
import dev.lockstep.v5.PubSubLocks;
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
import redis.clients.jedis.RedisClient;

/** {@code lab inspect} on a live lock of each kind, Lockstep's and Redisson's: who holds it, how often, who waits. */
class InspectTest extends SingleNodeTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private String read(String name) {
        try (RedisClient redis = node.newClient()) {
            return String.join("\n", LockReading.of(redis, name));
        }
    }

    private static void assertSays(String reading, String... facts) {
        for (String fact : facts) {
            assertTrue(reading.contains(fact), "expected '" + fact + "' in:\n" + reading);
        }
    }

    @Test
    void aFreeNameIsNotHeld() {
        assertSays(read("nobody-holds-this"), "not held");
    }

    @Test
    void stagesOneAndTwoShowTheirValueAndLease() {
        closedAfter(new SetnxLocks(closedAfter(node.newClient()), LockOptions.defaults())).get("inspect-v1").lock();
        assertSays(read("inspect-v1"), "stage 1", "lease left: ");
        closedAfter(new OwnerCheckLocks(closedAfter(node.newClient()), LockOptions.defaults())).get("inspect-v2").lock();
        assertSays(read("inspect-v2"), "stage 2: the holder's token");
    }

    @Test
    void aHashLockShowsItsHolderItsCountAndAHandle() throws Exception {
        Locks locks = closedAfter(new PubSubLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        DistLock lock = locks.get("inspect-v5");
        lock.lock();
        lock.lock();
        assertSays(read("inspect-v5"), "held by client " + locks.clientId() + ", thread " + Thread.currentThread().getId()
                + ", hold count 2", "reentrant hash");
        LockHold hold = locks.get("inspect-handle").tryAcquire(Duration.ZERO, null).orElseThrow();
        assertSays(read("inspect-handle"), "client " + locks.clientId() + ", hold handle ", "hold count 1");
        hold.release();
        lock.unlock();
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
            Await.until("the waiter queues", WAIT, () -> read("inspect-fair").contains("1 waiting"));
            assertSays(read("inspect-fair"), "1. client " + waiting.clientId() + ", thread " + waiter.threadId(),
                    "keeps its place for");
            lock.unlock();
            assertTrue(LockThread.get(waited, WAIT));
            waiter.run(() -> waiting.get("inspect-fair").unlock());
        }
    }

    @Test
    void aReadWriteLockShowsItsReadersOrItsWriter() throws Exception {
        ReadWriteLocks locks = closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), LockOptions.defaults()));
        ReadWriteDistLock lock = locks.get("inspect-rw");
        try (LockThread other = new LockThread("other reader")) {
            lock.readLock().lock();
            other.run(() -> lock.readLock().lock());
            assertSays(read("inspect-rw"), "mode read", "read by client " + locks.clientId() + ", thread "
                    + Thread.currentThread().getId(), "read by client " + locks.clientId() + ", thread " + other.threadId());
            other.run(() -> lock.readLock().unlock());
            lock.readLock().unlock();
        }
        lock.lock();
        assertSays(read("inspect-rw"), "mode write", "written by client " + locks.clientId());
        lock.unlock();
    }

    @Test
    void redissonsLocksReadAsOurs() throws Exception {
        RedissonClient redisson = RedissonClients.single(node.address());
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            RLock plain = redisson.getLock("inspect-rlock");
            holder.run(plain::lock);
            assertSays(read("inspect-rlock"), "reentrant hash", "thread " + holder.threadId() + ", hold count 1");
            RLock fair = redisson.getFairLock("inspect-rfair");
            holder.run(fair::lock);
            Future<Boolean> queued = waiter.submit(() -> fair.tryLock(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            Await.until("Redisson's waiter queues", WAIT, () -> read("inspect-rfair").contains("1 waiting"));
            assertSays(read("inspect-rfair"), "thread " + waiter.threadId());
            holder.run(fair::unlock);
            assertTrue(LockThread.get(queued, WAIT));
            waiter.run(fair::unlock);
            RReadWriteLock readWrite = redisson.getReadWriteLock("inspect-rrw");
            holder.run(() -> readWrite.readLock().lock());
            waiter.run(() -> readWrite.readLock().lock());
            assertSays(read("inspect-rrw"), "mode read", "thread " + holder.threadId(), "thread " + waiter.threadId());
            holder.run(() -> readWrite.readLock().unlock());
            waiter.run(() -> readWrite.readLock().unlock());
            holder.run(plain::unlock);
        } finally {
            redisson.shutdown();
        }
    }

    @Test
    void theCommandPrintsTheReading() {
        closedAfter(new PubSubLocks(closedAfter(node.newClient()), LockOptions.defaults())).get("inspect-cli").lock();
        StringWriter printed = new StringWriter();
        CommandLine lab = new CommandLine(new Lab());
        lab.setOut(new PrintWriter(printed));
        int status = lab.execute("inspect", "inspect-cli", "--url", "redis://" + node.address().getHost() + ":"
                + node.address().getPort());
        assertEquals(0, status, printed.toString());
        assertSays(printed.toString(), "lock 'inspect-cli' on redis://", "held by client ");
    }
}
