package dev.lockstep.testkit.contract;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import static dev.lockstep.testkit.contract.Messages.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Part of {@link LockContract}: a closed client's locks throw and send nothing, and a grant that meets the close is given back. */
public interface ClosedClients extends StageUnderTest {

    @Test
    default void aClosedClientsLocksThrowAndSendNothing() throws Exception {
        // Nodes of its own, so no other client's renewals are counted.
        List<RedisNode> own = startNodes();
        LockOptions options = Stage.leaseOptions(Duration.ofSeconds(5));
        Locks client = open(own, options);
        DistLock lock = client.get("closed");
        DistLock held = client.get("closed-held");
        assertTrue(held.tryLock(Duration.ZERO, null));
        client.close();
        long before = commandsRun(own);
        assertMessage(IllegalStateException.class, "closed", lock::lock);
        assertMessage(IllegalStateException.class, "closed", () -> lock.tryLock(Duration.ofSeconds(1), null));
        assertMessage(IllegalStateException.class, "closed", lock::tryLock);
        assertMessage(IllegalStateException.class, "closed", held::unlock);
        assertEquals(before, commandsRun(own), "a closed client's lock calls reached Redis");
        assertTrue(open(own, options).get("closed").tryLock(Duration.ZERO, null),
                "a closed client's lock call took the lock");
    }

    /** Alone: the client must be closed within the link's 300 ms delay of the script's reply. */
    @Test
    @PlaysAlone
    default void aClientClosedWhileItsLockScriptRunsGivesTheGrantBack() throws Exception {
        assumeTrue(claims(Guarantee.LEASE_RENEWAL), "before the watchdog, a grant simply runs out with its lease");
        try (ScenarioContext context = new ScenarioContext(stage(), fixture())) {
            List<FaultyLink> links = context.links();
            // A slow link holds the reply back while the test closes the client; the 30 s lease cannot free the key.
            LockOptions options = LockOptions.defaults().withNodeTimeout(Duration.ofSeconds(2));
            Locks locks = context.actorBehind("A", links, options).locks();
            DistLock lock = locks.get("closed-midway");
            // Connections open before the link slows down: their handshakes are not the point.
            DistLock warmUp = locks.get("warm-up");
            assertTrue(warmUp.tryLock(Duration.ZERO, null));
            warmUp.unlock();
            // The watching connections too: a new one per look (a TLS handshake each) would look too late.
            List<Jedis> watches = context.nodes().stream().map(RedisNode::admin).toList();
            links.forEach(link -> link.delay(Duration.ofMillis(300)));
            try (LockThread thread = new LockThread("closed-midway")) {
                Future<Boolean> taking = thread.submit(() -> lock.tryLock(Duration.ZERO, null));
                Await.until("the lock script ran on every node", BOUNDED,
                        () -> watches.stream().allMatch(watch -> watch.exists("closed-midway")));
                locks.close();
                Exception thrown = assertThrows(Exception.class, () -> LockThread.get(taking, BOUNDED));
                assertTrue(thrown instanceof IllegalStateException, "expected IllegalStateException, got " + thrown);
                Await.until("the grant is given back", BOUNDED,
                        () -> watches.stream().noneMatch(watch -> watch.exists("closed-midway")));
            } finally {
                watches.forEach(Jedis::close);
            }
        }
    }

    /** Commands {@code on} ran so far, but those of the admin connection that asks (INFO, and AUTH, CLIENT SETINFO, HELLO). */
    private static long commandsRun(List<RedisNode> on) {
        long total = 0;
        for (RedisNode node : on) {
            try (Jedis admin = node.admin()) {
                for (String line : admin.info("commandstats").split("\r?\n")) {
                    int calls = line.indexOf("calls=");
                    if (line.startsWith("cmdstat_") && !line.matches("cmdstat_(info|client|hello|auth)[:|].*")) {
                        total += Long.parseLong(line.substring(calls + 6, line.indexOf(',', calls)));
                    }
                }
            }
        }
        return total;
    }
}
