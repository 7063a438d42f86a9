package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;

/**
 * A token is only as monotonic as the store that counts it. A takes the lock and its token from
 * a master whose replica does not have the increment yet; the master dies and the replica is
 * promoted; B takes the lock there once it can. Without replica sync the promoted replica counts
 * from where it was and hands A's token out again, so a resource would take both holders'
 * writes. With replica sync ({@code WAIT}) A's acquisition counts only once the replica has the
 * increment, and B's token is greater. Judged from the two tokens the stage handed out.
 */
public final class TokenFailover extends Scenario {

    private static final String LOCK = "orders";
    private static final long LAG_MILLIS = 150;
    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final Duration SYNC = Duration.ofMillis(800);
    private static final Duration CATCH_UP = Duration.ofSeconds(10);
    private static final Duration B_WAIT = Duration.ofSeconds(5);

    private final boolean replicaSync;

    /** The scenario without replica sync, or with it when {@code replicaSync}. */
    public TokenFailover(boolean replicaSync) {
        super(replicaSync ? "token-failover+wait" : "token-failover",
                replicaSync ? Guarantee.REPLICATED_ACQUIRE : Guarantee.FAILOVER_SAFE,
                replicaSync
                        ? "As token-failover, but A's acquisition (and its token) waits for the lagging replica "
                        + "to acknowledge it (WAIT) before it counts."
                        : "A gets its token from a master whose replica never sees the increment; the master dies, "
                        + "the replica is promoted, and B gets a token there: the same one, or a lower one.");
        this.replicaSync = replicaSync;
    }

    @Override
    public String needs() {
        return "fencing tokens, one master and its replica";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage.fenced() && !stage.multiNode();
    }

    /** With replica sync, the sync must be acknowledged within 800 ms over a link 150 ms slow each way. */
    @Override
    public boolean timed() {
        return replicaSync;
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        History history = context.history();
        RedisNode master = context.node();
        Replica replicated = context.replicate(master, CATCH_UP);
        RedisNode replica = replicated.node();
        FaultyLink replication = replicated.link();
        LockOptions options = Stage.leaseOptions(LEASE);
        if (replicaSync) {
            replication.delay(Duration.ofMillis(LAG_MILLIS));
            history.record(History.REDIS, Kind.FAULT, "replication lags " + LAG_MILLIS + " ms each way");
            options = options.withReplicaSync(1, SYNC);
        } else {
            replication.blackhole();
            history.record(History.REDIS, Kind.FAULT, "replication to the replica goes dark");
        }
        Actor a = context.actor("A", options);
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        long aToken = a.token(LOCK);
        a.enter("enter, writes with token " + aToken);
        master.kill();
        history.record(History.REDIS, Kind.FAULT, "master killed");
        replica.promote();
        history.record(History.REDIS, Kind.FAULT, "replica promoted to master");
        // With sync, A's lease is on the promoted replica and no renewal reaches it: A is told, and stops.
        boolean aStopped = replicaSync && a.awaitLeaseLoss(B_WAIT);
        if (aStopped) {
            a.exit("stops: told its lease is lost");
        }
        // B needs no replica sync: the promoted replica has no replica of its own to wait for.
        Actor b = context.actor("B", ScenarioContext.addresses(List.of(replica)), Stage.leaseOptions(LEASE));
        if (!b.tryLock(LOCK, B_WAIT, null)) {
            throw new IllegalStateException("B could not take the lock within " + B_WAIT.toMillis() + " ms of the failover");
        }
        long bToken = b.token(LOCK);
        b.enter("enter, writes with token " + bToken);
        b.exit("exit");
        b.unlock(LOCK);
        if (!aStopped) {
            a.exit("exit");
        }
        a.unlock(LOCK);
        if (bToken <= aToken) {
            return Verdict.violated("the promoted replica gave B token " + bToken + " after the old master gave A token "
                    + aToken + ": it never saw A's increment, so a resource would take both holders' writes.");
        }
        return Verdict.held("B's token " + bToken + " is greater than A's " + aToken
                + ": the replica had acknowledged A's increment before A went on.");
    }
}
