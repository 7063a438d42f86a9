package dev.lockstep.testkit.contract;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.scenario.Scoreboard;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * What each part of the contract gets from {@link LockContract}: the stage and its claims, the
 * servers it runs on, and clients that are closed after the test (before their connections).
 */
public interface StageUnderTest {

    /** How long a call may take before the test calls it hung. */
    Duration BOUNDED = Duration.ofSeconds(10);

    /** The stage under test. */
    Stage stage();

    /** The guarantees the stage's test class claims. */
    Set<Guarantee> claimed();

    /** Whether the stage's test class claims {@code guarantee}. */
    default boolean claims(Guarantee guarantee) {
        return claimed().contains(guarantee);
    }

    /** How the test's servers let clients in. */
    ServerSecurity security();

    /** Where the test's nodes come from. */
    RedisFixture fixture();

    /** The nodes the class shares, as many as the stage uses. */
    List<RedisNode> nodes();

    /** As many fresh nodes as the stage uses. */
    List<RedisNode> startNodes();

    /** The scenarios' scoreboard, printed after the class. */
    Scoreboard scoreboard();

    /** A client on the shared nodes with a 5 s lease and a 20 ms spin. */
    default Locks open() {
        return open(Stage.leaseOptions(Duration.ofSeconds(5)).withSpinInterval(Duration.ofMillis(20)));
    }

    /** A client on the shared nodes. */
    default Locks open(LockOptions options) {
        return open(nodes(), options);
    }

    /** A client on {@code on}. */
    default Locks open(List<RedisNode> on, LockOptions options) {
        return openAt(on.stream().map(RedisNode::address).toList(), options);
    }

    /** A client over connections to {@code addresses}. */
    default Locks openAt(List<HostAndPort> addresses, LockOptions options) {
        return openOn(addresses.stream().map(address -> RedisNode.newClient(address, fixture().security())).toList(),
                options);
    }

    /** A client of the stage over {@code clients}; both are closed after the test, the client first. */
    Locks openOn(List<RedisClient> clients, LockOptions options);

    /** Closes {@code resource} after the test, newest first (after the class, if no test runs on this thread); returns it. */
    <T extends AutoCloseable> T closedAfterTest(T resource);
}
