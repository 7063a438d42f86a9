package dev.lockstep.testkit.contract;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.RedisRefusedException;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.AclUser;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.stage.Stage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stage works under exactly the ACL rule its lesson documents ({@code ACL SETUSER lockstep ...}
 * in its {@code README.md}), and with one permission taken away it fails at the call with a
 * {@link LockException} that names the permission and keeps Redis's error as its cause, leaving
 * no key behind. A stage's test class names the stage and the permission to take away:
 *
 * <pre>{@code class AclTest extends AclContract {
 *     AclTest() { super("v3-reentrant-hash", ReentrantHashLocks.class, "+hincrby"); }
 * }}</pre>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AclContract {

    private static final Duration WATCHDOG = Duration.ofMillis(300);
    private static final LockOptions OPTIONS = LockOptions.defaults()
            .withWatchdogTimeout(WATCHDOG).withSpinInterval(Duration.ofMillis(20));
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final Stage stage;
    private final String lockName;
    private final String removed;
    private final AclUser documented;
    private AclGround ground;

    /** The contract for stage {@code name} ({@code locks}), which must fail without its rule {@code removed}. */
    protected AclContract(String name, Class<? extends Locks> locks, String removed) {
        this(name, locks, "orders", removed);
    }

    /** As above, on the lock called {@code lockName}: the one its lesson's rule names. */
    protected AclContract(String name, Class<? extends Locks> locks, String lockName, String removed) {
        this.stage = new Stage(name, locks);
        this.lockName = lockName;
        this.removed = removed;
        this.documented = AclUser.documentedIn(Path.of("README.md"));
    }

    @BeforeAll
    void start() {
        ground = new AclGround(stage);
        System.out.println("lockstep: " + stage + " under " + documented);
    }

    @AfterEach
    void closeClientsAndCheckNothingIsLeft() throws Exception {
        ground.closeClientsAndCheckNothingIsLeft();
    }

    @AfterAll
    void stop() {
        if (ground != null) {
            ground.close();
        }
    }

    /** Lock, re-enter, be renewed, make a rival wait (polling or on the channel) and wake it: all under the rule. */
    @Test
    void theDocumentedRuleIsEnough() throws Exception {
        Locks holder = open(documented);
        Locks rival = open(documented);
        DistLock ours = holder.get(lockName);
        DistLock theirs = rival.get(lockName);
        Set<Guarantee> claims = holder.guarantees();
        try (LockThread holderThread = new LockThread("holder"); LockThread rivalThread = new LockThread("rival")) {
            holderThread.run(ours::lock);
            if (claims.contains(Guarantee.REENTRANT)) {
                assertTrue(holderThread.call(() -> ours.tryLock()), "re-entry refused under the documented rule");
                holderThread.run(ours::unlock);
            }
            if (claims.contains(Guarantee.LEASE_RENEWAL)) {
                // Several renewals: a refused one would end the hold and the key.
                Await.pause(WATCHDOG.multipliedBy(3));
                assertTrue(holderThread.call(() -> ours.isHeldByCurrentThread()), "the watchdog could not renew");
            }
            Future<Boolean> waited = rivalThread.submit(() -> theirs.tryLock(WAIT, null));
            // Asleep between tries: a spin, or on the release channel once subscribed.
            Await.until("the rival waits", LockThread.DEADLINE,
                    () -> rivalThread.thread().getState() == Thread.State.TIMED_WAITING);
            holderThread.run(ours::unlock);
            assertTrue(LockThread.get(waited, LockThread.DEADLINE), "the rival never got the lock");
            rivalThread.run(theirs::unlock);
        }
    }

    /**
     * Without one permission a call fails, naming it: on a free lock (take and release), or, when
     * those pass, waiting for a held one. Nothing is held afterwards and no key is left.
     */
    @Test
    void withoutOnePermissionTheCallFailsNamingIt() throws Exception {
        Locks holder = open(documented);
        Locks restricted = open(documented.without(removed));
        DistLock ours = holder.get(lockName);
        DistLock theirs = restricted.get(lockName);
        String permission = removed.substring(1);
        try (LockThread holderThread = new LockThread("holder"); LockThread restrictedThread = new LockThread("restricted")) {
            LockException failed = restrictedThread.call(() -> takeAndRelease(theirs, Duration.ZERO));
            if (failed == null) {
                holderThread.run(ours::lock);
                failed = restrictedThread.call(() -> takeAndRelease(theirs, WAIT));
                holderThread.run(ours::unlock);
            }
            assertNotNull(failed, "a client without " + removed + " took and released the lock, also after a wait");
            assertInstanceOf(RedisRefusedException.class, failed, "a refusal, not an outage: " + failed);
            System.out.println("lockstep: without " + removed + ": " + failed.getMessage());
            assertTrue(failed.getMessage().contains(permission), "the message must name " + permission + ": "
                    + failed.getMessage());
            assertNotNull(failed.getCause(), "Redis's error is kept as the cause");
            assertFalse(restrictedThread.call(() -> theirs.isHeldByCurrentThread()), "the failed call left a hold");
        }
    }

    /** Every command the documented rule allows: each is taken away in turn. */
    Stream<String> permissions() {
        return documented.rules().stream().filter(rule -> rule.startsWith("+"));
    }

    /**
     * Without any one permission of the rule, whatever the calls still manage leaves no key
     * without a TTL. Redis does not undo a script's writes when a later command in it is refused,
     * so every script meets its refusable commands before it writes (a PEXPIRE on a key that does
     * not exist yet changes nothing, but is checked like any other).
     */
    @ParameterizedTest(name = "without {0}")
    @MethodSource("permissions")
    void withoutAnyOnePermissionNoKeyIsLeftWithoutATtl(String permission) throws Exception {
        // Two users: redefining one user's rule changes it for its open connections too.
        // The default watchdog: the holder's hold is not what this test is about, and a 300 ms one can lapse under load.
        Locks holder = open(documented.named(documented.name() + "-holder"), LockOptions.defaults());
        Locks restricted = open(documented.without(permission), OPTIONS);
        List<DistLock> sides = new ArrayList<>(List.of(restricted.get(lockName)));
        if (sides.get(0) instanceof ReadWriteDistLock readWrite) {
            sides.add(readWrite.readLock());
        }
        DistLock ours = holder.get(lockName);
        try (LockThread holderThread = new LockThread("holder"); LockThread restrictedThread = new LockThread("restricted")) {
            for (DistLock side : sides) {
                restrictedThread.run(() -> takeTwiceAndRelease(side, Duration.ZERO));
                assertEveryKeyHasATtl("a free lock taken twice and released without " + permission);
                // A release that was refused leaves the lock held for its lease: then the rival waits for that.
                boolean held = holderThread.call(() -> ours.tryLock(Duration.ZERO, null));
                restrictedThread.run(() -> takeTwiceAndRelease(side, Duration.ofMillis(200)));
                assertEveryKeyHasATtl("waiting for a held lock without " + permission);
                if (held) {
                    holderThread.run(ours::unlock);
                    assertEveryKeyHasATtl("the holder's unlock after a wait without " + permission);
                }
            }
        } finally {
            // What is left ends with its TTL; the per-test check that nothing is left is for the calls that worked.
            ground.deleteLockKeys();
        }
    }

    /** Takes the lock within {@code wait}, again (a re-entry, where the stage has one), and releases what it got; failures are the point. */
    private static void takeTwiceAndRelease(DistLock lock, Duration wait) throws InterruptedException {
        int held = 0;
        try {
            while (held < 2 && lock.tryLock(wait, null)) {
                held++;
            }
        } catch (LockException | IllegalMonitorStateException refused) {
            // The call was refused part-way: what it left behind is what the test looks at.
        }
        for (; held > 0; held--) {
            try {
                lock.unlock();
            } catch (LockException | IllegalMonitorStateException refused) {
                // As above.
            }
        }
    }

    private void assertEveryKeyHasATtl(String after) {
        ground.assertEveryKeyHasATtl(after);
    }

    /** Takes the lock within {@code wait} and releases it: null when both worked, else the failure. */
    private static LockException takeAndRelease(DistLock lock, Duration wait) throws InterruptedException {
        try {
            if (!lock.tryLock(wait, null)) {
                throw new AssertionError("the lock stayed taken for " + wait.toMillis() + " ms");
            }
            lock.unlock();
            return null;
        } catch (LockException e) {
            return e;
        }
    }

    private Locks open(AclUser user) {
        return open(user, OPTIONS);
    }

    private Locks open(AclUser user, LockOptions options) {
        return ground.open(user, options);
    }
}
