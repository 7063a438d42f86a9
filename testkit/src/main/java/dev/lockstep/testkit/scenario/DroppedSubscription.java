package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.RedisTraffic;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Future;
import redis.clients.jedis.Jedis;

/**
 * B sleeps on the lock's release channel while A holds the lock. Redis drops B's pub/sub
 * connection ({@code CLIENT KILL TYPE pubsub}), and A unlocks at once: the release is published
 * while nobody listens. A waiter that only wakes on messages sleeps out A's whole lease; one that
 * counts a reconnection as a possible release tries again at once. Judged from the history: B
 * must take the lock within {@link #PROMPTLY} of A's unlock. Only stages whose waiters sleep on a
 * subscription have one to drop.
 */
public final class DroppedSubscription extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final Duration PROMPTLY = Duration.ofSeconds(1);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    /** The scenario as the catalog lists it. */
    public DroppedSubscription() {
        super("dropped-subscription", Guarantee.WAKE_AFTER_RECONNECT,
                "B sleeps on the release channel; Redis drops B's subscription and A unlocks at once: "
                + "B must not sleep out A's lease.");
    }

    @Override
    public String needs() {
        return "waiters that sleep on a subscription";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage.claims().contains(Guarantee.EFFICIENT_WAIT);
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.leaseOptions(LEASE);
        Actor a = context.actor("A", options);
        Actor b = context.actor("B", options);
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        a.enter("enter");
        Map<RedisNode, Long> scriptsBefore = new HashMap<>();
        context.nodes().forEach(node -> scriptsBefore.put(node, RedisTraffic.scriptRuns(node)));
        Future<Boolean> bTurn = context.background(() -> {
            boolean taken = b.tryLock(LOCK, DEADLINE, null);
            if (taken) {
                b.unlock(LOCK);
            }
            return taken;
        });
        for (RedisNode node : context.nodes()) {
            awaitAsleep(node, scriptsBefore.get(node));
        }
        long dropped = 0;
        for (RedisNode node : context.nodes()) {
            dropped += node.killClients("pubsub");
        }
        context.history().record(History.REDIS, Kind.FAULT, "drops " + dropped + " pub/sub connection(s)");
        a.exit("exit");
        a.unlock(LOCK);
        boolean bGotIt = context.await(bTurn, DEADLINE.multipliedBy(2));
        return judge(context.history(), bGotIt);
    }

    /**
     * Waits until B sleeps on the channel: subscribed on {@code node}, and refused twice there, once
     * before subscribing and once after (so a release in between is not missed). Then it sleeps.
     */
    private static void awaitAsleep(RedisNode node, long scriptsBefore) {
        try (Jedis admin = node.admin()) {
            Await.until("B subscribes and sleeps on " + node.label(), DEADLINE,
                    () -> !admin.pubsubChannels().isEmpty() && RedisTraffic.scriptRuns(node) - scriptsBefore >= 2);
        }
    }

    private static Verdict judge(History history, boolean bGotIt) {
        Event released = history.events().stream()
                .filter(e -> e.actor().equals("A") && e.kind() == Kind.UNLOCK).findFirst().orElseThrow();
        if (!bGotIt) {
            return Verdict.violated("B never took the lock A released at " + released.millis() + " ms.");
        }
        Event taken = history.events().stream()
                .filter(e -> e.actor().equals("B") && e.kind() == Kind.ACQUIRED).findFirst().orElseThrow();
        long lagMillis = (taken.at() - released.at()) / 1_000_000;
        if (taken.at() - released.at() > PROMPTLY.toNanos()) {
            return Verdict.violated("A released the lock at " + released.millis() + " ms while B's subscription was "
                    + "down; B slept on until " + taken.millis() + " ms (" + lagMillis + " ms), the rest of A's lease.");
        }
        return Verdict.held("The release went unheard, but B's new subscription woke it: it took the lock "
                + lagMillis + " ms after A's unlock.");
    }
}
