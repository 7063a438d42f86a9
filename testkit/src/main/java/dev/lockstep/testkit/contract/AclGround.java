package dev.lockstep.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.AclUser;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * Where an {@link AclContract} runs: the stage's Redis servers, clients that log in as ACL users,
 * and what the tests check the servers for afterwards (stage 7's token counters aside, which stay
 * on purpose).
 */
final class AclGround implements AutoCloseable {

    private final Stage stage;
    private final RedisFixture fixture = RedisFixture.processes();
    private final List<RedisNode> nodes = new ArrayList<>();
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** Servers for {@code stage}: one, or a quorum stage's masters. */
    AclGround(Stage stage) {
        this.stage = stage;
        for (int i = 0; i < stage.nodeCount(); i++) {
            nodes.add(fixture.start());
        }
    }

    /** A client of the stage with {@code options}, logged in on every server as {@code user}, whom it creates. */
    Locks open(AclUser user, LockOptions options) {
        List<RedisClient> clients = new ArrayList<>();
        for (RedisNode node : nodes) {
            user.createOn(node);
            RedisClient client = user.clientOf(node);
            opened.add(client);
            clients.add(client);
        }
        Locks locks = stage.open(clients, options);
        opened.add(locks);
        return locks;
    }

    /** Closes every client opened since the last call, then checks that no key and no client thread is left. */
    void closeClientsAndCheckNothingIsLeft() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                assertEquals(List.of(), lockKeys(admin), "keys left on " + node.label() + " (token counters stay, on purpose)");
            }
        }
        Await.until("the clients' threads end", LockThread.DEADLINE, () -> Threads.named("lockstep-").isEmpty());
    }

    /** Fails when a lock key on any server has no TTL, {@code after} saying what just happened. */
    void assertEveryKeyHasATtl(String after) {
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                List<String> forever = lockKeys(admin).stream().filter(key -> admin.pttl(key) == -1).toList();
                assertEquals(List.of(), forever, "keys without a TTL on " + node.label() + " after " + after);
            }
        }
    }

    /** Deletes the lock keys left on every server: their TTLs would end them, but the next test starts clean. */
    void deleteLockKeys() {
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                lockKeys(admin).forEach(admin::del);
            }
        }
    }

    /** Stops the servers. */
    @Override
    public void close() {
        fixture.close();
    }

    private static List<String> lockKeys(Jedis admin) {
        return admin.keys("*").stream().filter(key -> !key.startsWith(Stage.TOKEN_COUNTERS)).toList();
    }
}
