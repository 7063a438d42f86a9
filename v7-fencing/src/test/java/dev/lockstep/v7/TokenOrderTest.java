package dev.lockstep.v7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.FencedLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Ten thousand acquisitions by three clients, some of whose holds expire and some of whose keys
 * are deleted under them: every token is greater than every token handed out before its
 * acquisition began.
 */
class TokenOrderTest extends SingleNodeTest {

    private static final String NAME = "ten-thousand";
    private static final int ACQUISITIONS = 10_000;
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration SHORT_LEASE = Duration.ofMillis(20);
    private final AtomicInteger ranOutBeforeTheirTokens = new AtomicInteger();

    /** One acquisition: when the call began and returned (nanoTime), and the token it got. */
    private record Grant(long began, long returned, long token) {
    }

    @Test
    void tokensOnlyGrowAcrossExpiriesAndDeletions() throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Grant> grants = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(3);
        try (Jedis admin = node.admin()) {
            List<Future<List<Grant>>> work = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                FencedLock lock = closedAfter(new FencedLocks(closedAfter(node.newClient()), LockOptions.defaults())).get(NAME);
                work.add(clients.submit(() -> acquire(lock, next, admin)));
            }
            for (Future<List<Grant>> client : work) {
                grants.addAll(client.get());
            }
        } finally {
            clients.shutdownNow();
        }
        assertEquals(ACQUISITIONS, grants.size() + ranOutBeforeTheirTokens.get());
        Set<Long> distinct = new HashSet<>();
        grants.forEach(grant -> distinct.add(grant.token()));
        assertEquals(grants.size(), distinct.size(), "no token handed out twice");
        assertEachTokenExceedsThoseHandedOutBefore(grants);
    }

    /** Takes and ends holds until the shared count is reached: mostly unlocked, every 97th left to expire, every 89th deleted. */
    private List<Grant> acquire(FencedLock lock, AtomicInteger next, Jedis admin) throws InterruptedException {
        List<Grant> mine = new ArrayList<>();
        for (int i = next.getAndIncrement(); i < ACQUISITIONS; i = next.getAndIncrement()) {
            boolean expires = i % 97 == 0;
            long began = System.nanoTime();
            Long token;
            try {
                token = lock.tryLockAndGetToken(WAIT, expires ? SHORT_LEASE : null);
            } catch (IllegalMonitorStateException ranOut) {
                // On a busy machine a 20 ms lease can run out before the grant's reply is read: no hold, so no token.
                assertTrue(expires, "a hold with a watchdog ran out before its token was read: " + ranOut);
                ranOutBeforeTheirTokens.incrementAndGet();
                continue;
            }
            long returned = System.nanoTime();
            if (token == null) {
                throw new AssertionError("acquisition " + i + " waited " + WAIT.toMillis() + " ms");
            }
            mine.add(new Grant(began, returned, token));
            if (expires) {
                Await.until("hold " + i + " expires", WAIT, () -> !lock.isHeldByCurrentThread());
            } else if (i % 89 == 0) {
                synchronized (admin) {
                    admin.del(NAME);
                }
                assertThrows(IllegalMonitorStateException.class, lock::unlock, "the key was deleted under the holder");
            } else {
                lock.unlock();
            }
        }
        return mine;
    }

    /** For each grant, every grant that returned before it began has a smaller token. */
    private static void assertEachTokenExceedsThoseHandedOutBefore(List<Grant> grants) {
        List<Grant> byReturn = new ArrayList<>(grants);
        byReturn.sort(Comparator.comparingLong(Grant::returned));
        List<Grant> byStart = new ArrayList<>(grants);
        byStart.sort(Comparator.comparingLong(Grant::began));
        long highestBefore = 0;
        int returnedBefore = 0;
        for (Grant grant : byStart) {
            while (returnedBefore < byReturn.size() && byReturn.get(returnedBefore).returned() < grant.began()) {
                highestBefore = Math.max(highestBefore, byReturn.get(returnedBefore).token());
                returnedBefore++;
            }
            assertTrue(grant.token() > highestBefore, "token " + grant.token() + " after token " + highestBefore);
        }
    }
}
