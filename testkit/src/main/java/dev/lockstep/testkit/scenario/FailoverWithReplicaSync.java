package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Intrusion;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;

/**
 * {@code failover} again, with replica sync switched on ({@link LockOptions#withReplicaSync}):
 * the replica is alive but lags ({@value #LAG_MILLIS} ms each way), A's acquisition waits until
 * the replica acknowledged it, and only then is the master killed. A stage that honours the
 * switch keeps the lock through the promotion; one that ignores it loses it as before. What it
 * does not buy (a stalled replica makes acquisition fail; an acknowledged write can still be
 * lost) is shown by the stages' own tests, not here.
 */
public final class FailoverWithReplicaSync extends Scenario {

    private static final String LOCK = "orders";
    private static final long LAG_MILLIS = 150;
    private static final Duration LEASE = Duration.ofSeconds(5);
    /** Below the clients' socket timeout, so a WAIT that gets no acknowledgement ends as a refusal, not a dead connection. */
    private static final Duration SYNC = Duration.ofMillis(800);
    private static final Duration CATCH_UP = Duration.ofSeconds(10);
    private static final Duration B_WAIT = Duration.ofMillis(500);

    private final long lagMillis;

    /** The scenario as the catalog lists it. */
    public FailoverWithReplicaSync() {
        this(LAG_MILLIS);
    }

    /** The same story over a replica {@code lagMillis} ms slow each way: past 400 ms, its sync never comes in time. */
    public static FailoverWithReplicaSync lagging(long lagMillis) {
        return new FailoverWithReplicaSync(lagMillis);
    }

    private FailoverWithReplicaSync(long lagMillis) {
        super("failover+wait", Guarantee.REPLICATED_ACQUIRE,
                "As failover, but A's lock waits for the lagging replica to acknowledge it (WAIT) "
                + "before it counts; then the master dies and the replica is promoted.");
        this.lagMillis = lagMillis;
    }

    @Override
    public String needs() {
        return "one master and its replica";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return !stage.multiNode();
    }

    /** With replica sync the sync must be acknowledged within 800 ms over a link 150 ms slow each way; without, the master must die first. */
    @Override
    public boolean timed() {
        return true;
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        History history = context.history();
        LockOptions options = Stage.leaseOptions(LEASE).withReplicaSync(1, SYNC);
        RedisNode master = context.node();
        Replica replicated = context.replicate(master, CATCH_UP);
        RedisNode replica = replicated.node();
        FaultyLink replication = replicated.link();
        replication.delay(Duration.ofMillis(lagMillis));
        history.record(History.REDIS, Kind.FAULT, "replication lags " + lagMillis + " ms each way");
        Actor a = context.actor("A", options);
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            // The replica's acknowledgement came later than the sync allows: the lock rightly refused.
            throw new TooSlowToPlay("A could not take a free lock: its replica did not acknowledge within " + SYNC.toMillis()
                    + " ms over a link " + lagMillis + " ms slow each way");
        }
        a.enter("enter");
        master.kill();
        history.record(History.REDIS, Kind.FAULT, "master killed");
        replica.promote();
        history.record(History.REDIS, Kind.FAULT, "replica promoted to master");
        // B needs no replica sync: the promoted replica has no replica of its own to wait for.
        Actor b = context.actor("B", ScenarioContext.addresses(List.of(replica)), Stage.leaseOptions(LEASE));
        if (b.tryLock(LOCK, B_WAIT, null)) {
            b.critical(Duration.ofMillis(100));
            b.unlock(LOCK);
        }
        a.exit("exit");
        a.unlock(LOCK);
        List<Intrusion> intrusions = Checker.intrusions(history);
        if (!intrusions.isEmpty()) {
            return Verdict.violated(intrusions.get(0) + ": A's lock counted before the replica had it.");
        }
        return Verdict.held("the promoted replica had A's lock, acknowledged before A went on, so B stayed out.");
    }
}
