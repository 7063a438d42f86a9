package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * One name held through two locks of one client at once (a group and the name alone): neither
 * cuts the other's lease short. And a group is never the lock of a name that looks like it.
 */
class SharedNamesTest extends SingleNodeTest {

    /** A watchdog renewing every 200 ms: a group's renewal comes soon after it is taken. */
    private static final LockOptions OPTIONS = LockOptions.defaults()
            .withWatchdogTimeout(Duration.ofMillis(600)).withSpinInterval(Duration.ofMillis(20));
    private static final Duration LONG_LEASE = Duration.ofSeconds(10);

    private MultiNameLocks client() {
        return closedAfter(new MultiNameLocks(closedAfter(node.newClient()), OPTIONS));
    }

    @Test
    void aGroupsExtendNeverCutsTheLeaseOfANameHeldAloneToo() {
        MultiNameLocks locks = client();
        DistLock alone = locks.get("extended-a");
        DistLock group = locks.getAll("extended-a", "extended-b");
        alone.lock(LONG_LEASE);
        group.lock();
        group.extend(Duration.ofMillis(100));
        group.unlock();
        // Past the group's short lease: had it cut the name's, the name would be gone by now.
        Await.pause(Duration.ofMillis(300));
        assertTrue(alone.isHeldByCurrentThread());
        assertFalse(client().get("extended-a").tryLock(), "another client took a name this thread still holds");
        assertTrue(alone.remainingLease().compareTo(Duration.ofSeconds(5)) > 0, "left " + alone.remainingLease());
        alone.unlock();
    }

    @Test
    void aGroupsRenewalNeverCutsTheLeaseOfANameHeldAloneToo() {
        MultiNameLocks locks = client();
        DistLock alone = locks.get("renewed-a");
        DistLock group = locks.getAll("renewed-a", "renewed-b");
        alone.lock(LONG_LEASE);
        group.lock();
        // Two of the group's renewals, which set its 600 ms lease on both names.
        Await.pause(Duration.ofMillis(500));
        assertTrue(alone.remainingLease().compareTo(Duration.ofSeconds(5)) > 0,
                "the group's renewal cut the name's lease to " + alone.remainingLease());
        group.unlock();
        Await.pause(Duration.ofMillis(700));
        assertTrue(alone.isHeldByCurrentThread());
        assertFalse(client().get("renewed-a").tryLock(), "another client took a name this thread still holds");
        alone.unlock();
    }

    @Test
    void aNameThatLooksLikeAGroupIsANameOfItsOwn() {
        MultiNameLocks locks = client();
        DistLock group = locks.getAll("left", "right");
        DistLock literal = locks.get("left+right");
        assertNotSame(group, literal);
        assertEquals("left+right", literal.name());
        literal.lock();
        assertFalse(client().get("left+right").tryLock(), "another client took the name 'left+right' while it was held");
        DistLock left = client().get("left");
        assertTrue(left.tryLock(), "holding the name 'left+right' took 'left'");
        left.unlock();
        literal.unlock();
        MultiNameLocks other = client();
        DistLock first = other.get("up+down");
        DistLock second = other.getAll("up", "down");
        assertNotSame(first, second, "the name first, then the group over the names it looks like");
    }
}
