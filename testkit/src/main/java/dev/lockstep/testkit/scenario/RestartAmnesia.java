package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.NodeConfig;
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
 * RedLock's documented limit. Two of five masters are unreachable for A, which locks on the
 * other three; one of those three restarts without A's key; the two come back; B now finds
 * three free masters, a majority, while A still works. Two variants show the remedies: the
 * node restarts from an append-only file written with {@code fsync always}, or it stays down
 * longer than the lease before rejoining (by then A's lease, renewed by no quorum, has run out
 * and A has been told). Only stages over several masters can tell this story.
 */
public final class RestartAmnesia extends Scenario {

    /** How the restarted node comes back. */
    public enum Remedy {
        /** At once and empty: the limit. */
        NONE("restart-amnesia", Guarantee.RESTART_SAFE, "restarts at once, empty"),
        /** At once, from an AOF written with fsync always. */
        AOF("restart-amnesia+aof", Guarantee.FAILOVER_SAFE, "restarts at once from its fsynced AOF"),
        /** Empty, but only after staying down longer than the lease. */
        DELAYED_RESTART("restart-amnesia+delay", Guarantee.FAILOVER_SAFE, "stays down longer than the lease");

        private final String id;
        private final Guarantee guarantee;
        private final String how;

        Remedy(String id, Guarantee guarantee, String how) {
            this.id = id;
            this.guarantee = guarantee;
            this.how = how;
        }
    }

    private static final String LOCK = "orders";
    private static final Duration LEASE = Duration.ofMillis(1500);
    private static final Duration B_WAIT = Duration.ofMillis(500);
    private static final Duration WORK = Duration.ofMillis(100);

    private final Remedy remedy;

    /** The story with {@code remedy} applied to the restarting node. */
    public RestartAmnesia(Remedy remedy) {
        super(remedy.id, remedy.guarantee, "Two of five masters are unreachable while A locks on the other three; "
                + "one of A's three " + remedy.how + "; the two come back and B asks for the lock.");
        this.remedy = remedy;
    }

    @Override
    public String needs() {
        return "several independent masters";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage.multiNode();
    }

    /** B's rounds must win their majority within its 500 ms wait, each node answering within 100 ms. */
    @Override
    public boolean timed() {
        return true;
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        History history = context.history();
        List<RedisNode> nodes = context.nodes(remedy == Remedy.AOF ? NodeConfig.defaults().withAof() : NodeConfig.defaults());
        List<FaultyLink> links = context.links();
        Actor a = context.actorBehind("A", links, Stage.leaseOptions(LEASE));
        links.get(3).blackhole();
        links.get(4).blackhole();
        history.record(History.REDIS, Kind.FAULT, "n4 and n5 unreachable for A");
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new IllegalStateException("A could not lock on the three masters it reaches");
        }
        a.enter("enter");
        RedisNode restarted = nodes.get(2);
        restarted.kill();
        long killedAt = System.nanoTime();
        history.record(History.REDIS, Kind.FAULT, "n3 killed");
        boolean stopped = false;
        if (remedy == Remedy.DELAYED_RESTART) {
            // Renewed by two masters only, A's lease runs out: A is told and stops.
            stopped = a.awaitLeaseLoss(LEASE.multipliedBy(3));
            if (stopped) {
                a.exit("exit: stops work");
            }
            // The remedy itself: n3 rejoins only once any lease it ever granted has run out.
            long downFor = LEASE.plusMillis(200).toNanos() - (System.nanoTime() - killedAt);
            if (downFor > 0) {
                Thread.sleep(downFor / 1_000_000);
            }
        }
        restarted.start();
        history.record(History.REDIS, Kind.FAULT, "n3 " + (remedy == Remedy.AOF ? "back from its AOF" : "back, empty"));
        links.get(3).heal();
        links.get(4).heal();
        history.record(History.REDIS, Kind.FAULT, "n4 and n5 reachable again");
        Actor b = context.actor("B", Stage.leaseOptions(LEASE));
        if (b.tryLock(LOCK, B_WAIT, null)) {
            b.critical(WORK);
            b.unlock(LOCK);
        }
        if (!stopped) {
            a.exit("exit");
        }
        a.unlock(LOCK);
        List<Intrusion> intrusions = Checker.intrusions(history);
        if (!intrusions.isEmpty()) {
            return Verdict.violated(intrusions.get(0) + ": n3 forgot A's key and, with n4 and n5, made a majority.");
        }
        return Verdict.held("B got no majority while A held the lock: n3 " + remedy.how + ".");
    }
}
