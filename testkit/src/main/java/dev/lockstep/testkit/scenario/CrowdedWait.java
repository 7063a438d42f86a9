package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.RedisTraffic;
import dev.lockstep.testkit.watch.Stalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;

/**
 * Sixteen waiters in two clients each take one lock once, holding it briefly. What matters is
 * how much the waiting costs: Redis requests per acquisition, and the lag from a release to
 * the next acquisition.
 *
 * <p>The limits, from first principles. An acquisition needs one successful lock request and
 * one unlock. A waiter that sleeps until a release adds a constant: one try before it
 * subscribes and one after (so a release in between is not missed), and per release at most
 * one wake-up try per client, since a release wakes one waiter of each client. With two
 * clients that is 2 + 2 + 2 = 6 requests per acquisition whatever the number of waiters; the
 * limit allows one more. A quorum lock counts per node and may also take back a losing round's
 * grants: once per other client and release, and once per waiter in the opening race where all
 * sixteen try at once: two more. A fair lock's waiters each subscribe to a channel of their own,
 * and unsubscribe: two more. A spinning waiter instead tries
 * every spin interval for as long as it waits: about (waiters still waiting) x (hold / spin
 * interval) tries per acquisition, which with 16 waiters, {@value #HOLD_MILLIS} ms holds and the
 * default 100 ms spin is well above the limit and grows with the crowd. The wake-up lag of a
 * sleeper is a publish and one round trip, well under a millisecond on loopback; a spinner's is
 * up to a spin interval. The limit on the 90th percentile, {@value #LAG_LIMIT_MILLIS} ms, leaves
 * room for thread scheduling and is still far below what spinning shows once few waiters are
 * left; each lag is counted without the time this JVM's threads waited to run meanwhile, which a
 * machine busy with other work adds to every thread alike.
 */
public final class CrowdedWait extends Scenario {

    private static final String LOCK = "orders";
    private static final int CLIENTS = 2;
    private static final int WAITERS_PER_CLIENT = 8;
    private static final long HOLD_MILLIS = 150;
    /** Lock and unlock, a try before and after subscribing, a wake-up try per client, and one spare. */
    private static final double REQUEST_LIMIT = 2 + 2 + CLIENTS + 1;
    /** A quorum lock may also take back losing grants: once per other client and release, once in the opening race. */
    private static final double QUORUM_UNDO = CLIENTS - 1 + 1;
    /**
     * A fair lock wakes the head of its queue alone, so each waiter listens on a channel of its own:
     * it subscribes and unsubscribes once per acquisition, where stage 5's waiters of one client share one.
     */
    private static final double OWN_CHANNEL = 2;
    private static final long LAG_LIMIT_MILLIS = 30;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /** The scenario as the catalog lists it. */
    public CrowdedWait() {
        super("crowded-wait", Guarantee.EFFICIENT_WAIT,
                "16 waiters in 2 clients queue for one lock held briefly by each in turn: "
                + "spinning waiters flood Redis and notice a release late.");
    }

    /** The 90th percentile wake-up lag must stay under 30 ms. */
    @Override
    public boolean timed() {
        return true;
    }

    /** Requests per acquisition and wake-up lag against their limits. */
    @Override
    public boolean measured() {
        return true;
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        Stalls.watch();
        LockOptions options = Stage.scenarioOptions();
        List<Actor> waiters = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            Actor first = context.actor((char) ('A' + c) + "/w1", options);
            waiters.add(first);
            for (int w = 2; w <= WAITERS_PER_CLIENT; w++) {
                waiters.add(first.sibling("w" + w));
            }
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> turns = new ArrayList<>();
        long acquired;
        long requests;
        long commands;
        try (RedisTraffic traffic = new RedisTraffic(context.nodes())) {
            for (Actor waiter : waiters) {
                turns.add(context.background(() -> {
                    start.await();
                    if (!waiter.tryLock(LOCK, DEADLINE, null)) {
                        return false;
                    }
                    waiter.critical(Duration.ofMillis(HOLD_MILLIS));
                    return waiter.unlock(LOCK);
                }));
            }
            start.countDown();
            acquired = 0;
            for (Future<Boolean> turn : turns) {
                acquired += context.await(turn, DEADLINE) ? 1 : 0;
            }
            requests = traffic.requests();
            commands = traffic.commands();
        }
        if (acquired < waiters.size()) {
            return Verdict.violated("only " + acquired + " of " + waiters.size() + " waiters got the lock.");
        }
        if (!Checker.overlaps(context.history()).isEmpty()) {
            return Verdict.violated("mutual exclusion broke: " + Checker.overlaps(context.history()).get(0));
        }
        // Per node: a quorum lock asks every node, and each node sees one lock's worth of traffic.
        double perAcquisition = (double) requests / acquired / context.nodes().size();
        double limit = REQUEST_LIMIT + (context.stage().multiNode() ? QUORUM_UNDO : 0)
                + (context.stage().claims().contains(Guarantee.FAIR_ORDER) ? OWN_CHANNEL : 0);
        long lag = lagPercentile(context.history(), 0.9);
        String measured = String.format(Locale.ROOT, "%.1f requests per acquisition%s (limit %.0f), "
                        + "90th percentile wake-up lag %d ms (limit %d ms); %.1f commands per acquisition "
                        + "counting those run inside scripts", perAcquisition,
                context.stage().multiNode() ? " per node" : "", limit, lag, LAG_LIMIT_MILLIS,
                (double) commands / acquired / context.nodes().size());
        if (perAcquisition > limit || lag > LAG_LIMIT_MILLIS) {
            return Verdict.violated("waiting cost too much: " + measured + ".");
        }
        return Verdict.held("waiters slept until released: " + measured + ".");
    }

    /**
     * The given percentile of the time from an unlock call to the next acquisition, in ms, less the
     * time this JVM's threads waited to run meanwhile ({@link Stalls}): a machine busy with other
     * work delays every thread alike, and that is not the lock noticing a release late.
     */
    private static long lagPercentile(History history, double percentile) {
        List<Long> lags = new ArrayList<>();
        Event release = null;
        for (Event e : history.events()) {
            if (e.kind() == Kind.UNLOCK && e.depth() == 0) {
                release = e;
            } else if (e.kind() == Kind.ACQUIRED && release != null) {
                long stalled = Stalls.nanosBetween(history.nanoTimeOf(release.at()), history.nanoTimeOf(e.at()));
                lags.add(Math.max(0, e.at() - release.at() - stalled) / 1_000_000);
                release = null;
            }
        }
        lags.sort(Long::compare);
        return lags.isEmpty() ? 0 : lags.get((int) Math.min(lags.size() - 1, Math.floor(percentile * lags.size())));
    }
}
