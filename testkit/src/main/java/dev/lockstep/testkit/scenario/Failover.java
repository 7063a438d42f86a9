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
 * The master dies with the lock on it. On one master with a replica: replication lags (the link
 * to the replica goes dark), A locks on the master, the master is killed, the replica is
 * promoted without A's key, and B locks on it while A still works. On independent masters (a
 * quorum stage), one of A's nodes is killed and comes back empty instead: B must not get a
 * quorum. On a ZooKeeper ensemble, its leader is killed: A's node was written on a majority, so
 * the new leader has it. Judged by {@link Checker#intrusions}.
 */
public final class Failover extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration LEASE = Duration.ofSeconds(3);
    /**
     * A ZooKeeper client's lease is its session, which must outlast an election and the client's
     * reconnection to another server, as in any deployment (Curator's default is 60 s); a client
     * cut off for longer loses its nodes, as a Redis holder loses its key.
     */
    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration WORK = Duration.ofMillis(200);
    private static final Duration B_WAIT = Duration.ofMillis(500);
    private static final Duration SYNC = Duration.ofSeconds(10);

    /** The scenario as the catalog lists it. */
    public Failover() {
        super("failover", Guarantee.FAILOVER_SAFE,
                "A holds the lock when a master dies: on one master, its lagging replica is promoted without A's key; "
                + "on several masters, one of A's comes back empty; on a ZooKeeper ensemble, the leader dies. "
                + "B asks for the lock while A still works.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.leaseOptions(LEASE);
        return switch (context.stage().ground()) {
            case REDIS -> onReplicatedMaster(context, options);
            case REDIS_MASTERS -> onIndependentMasters(context, options);
            case ZOOKEEPER -> onEnsemble(context, Stage.leaseOptions(SESSION));
            case NONE -> throw new IllegalStateException("no lock, no server to lose");
        };
    }

    /** With no lock there is no lock server to lose: the version lives in the row it guards. */
    @Override
    public boolean appliesTo(Stage stage) {
        return stage.ground() != Stage.Ground.NONE;
    }

    @Override
    public String needs() {
        return "a lock server to lose";
    }

    private Verdict onReplicatedMaster(ScenarioContext context, LockOptions options) throws Exception {
        History history = context.history();
        RedisNode master = context.node();
        Replica replicated = context.replicate(master, SYNC);
        RedisNode replica = replicated.node();
        FaultyLink replication = replicated.link();
        Actor a = context.actor("A", options);
        replication.blackhole();
        history.record(History.REDIS, Kind.FAULT, "replication to the replica goes dark");
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        a.enter("enter");
        master.kill();
        history.record(History.REDIS, Kind.FAULT, "master killed");
        replica.promote();
        history.record(History.REDIS, Kind.FAULT, "replica promoted to master");
        Actor b = context.actor("B", ScenarioContext.addresses(List.of(replica)), options);
        return bAsksWhileAWorks(history, a, b, "the master died before its replica got A's key");
    }

    private Verdict onIndependentMasters(ScenarioContext context, LockOptions options) throws Exception {
        History history = context.history();
        Actor a = context.actor("A", options);
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        a.enter("enter");
        RedisNode victim = context.node();
        victim.kill();
        victim.start();
        history.record(History.REDIS, Kind.FAULT, "n1 killed, back empty");
        return bAsksWhileAWorks(history, a, context.actor("B", options), "one of A's masters came back empty");
    }

    private Verdict onEnsemble(ScenarioContext context, LockOptions options) throws Exception {
        History history = context.history();
        WatchedEnsemble ensemble = context.ensemble();
        Actor a = context.actor("A", options);
        if (!a.tryLock(LOCK, SYNC, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        a.enter("enter");
        history.record(WatchedEnsemble.LANE, Kind.FAULT, ensemble.killLeader() + ", the leader, killed");
        history.record(WatchedEnsemble.LANE, Kind.NOTE, ensemble.awaitLeader() + " elected leader");
        return bAsksWhileAWorks(history, a, context.actor("B", options), "the ensemble's leader died");
    }

    /** B asks for the lock, and works if it gets it; then A, which held it all along, finishes: judged. */
    private static Verdict bAsksWhileAWorks(History history, Actor a, Actor b, String cause) throws InterruptedException {
        if (b.tryLock(LOCK, B_WAIT, null)) {
            b.critical(WORK);
            b.unlock(LOCK);
        }
        a.exit("exit");
        a.unlock(LOCK);
        List<Intrusion> intrusions = Checker.intrusions(history);
        if (!intrusions.isEmpty()) {
            return Verdict.violated(intrusions.get(0) + ": " + cause + ".");
        }
        return Verdict.held("B could not take the lock while A held it, though " + cause + ".");
    }
}
