package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Two clients near Redis and one far from it (a slow link each way) each take the lock again the
 * moment they let it go, as a busy worker loop does. Whoever asks first after a release wins, and
 * the far client's request always comes last: unless the lock keeps a queue, it hardly ever gets
 * in, however long it waits.
 */
public final class Starvation extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration HOLD = Duration.ofMillis(20);
    private static final Duration STREAM = Duration.ofMillis(1000);
    /** The far client's extra delay, each way. */
    private static final Duration FAR = Duration.ofMillis(15);
    /** The far client is starved when it gets less than its fair share (a third of the grants) divided by this. */
    private static final int STARVED_BELOW = 2;
    /** Polling stages poll often, so that the near clients' waits are short and only the far one's odds are at stake. */
    private static final Duration SPIN = Duration.ofMillis(2);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** The scenario as the catalog lists it. */
    public Starvation() {
        super("starvation", Guarantee.FAIR_ORDER,
                "Two clients near Redis and one " + FAR.multipliedBy(2).toMillis() + " ms further away take the lock "
                + "again as soon as they let it go, for " + STREAM.toMillis() + " ms: does the far one get its turn?");
    }

    /** Who wins each release is a race of round trips a few milliseconds apart. */
    @Override
    public boolean timed() {
        return true;
    }

    /** The far client's share of the grants in a window: a count a machine busy with other work can skew. */
    @Override
    public boolean measured() {
        return true;
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.scenarioOptions().withSpinInterval(SPIN);
        List<FaultyLink> links = context.links();
        links.forEach(link -> link.delay(FAR));
        Actor far = context.actorBehind("F", links, options);
        List<Actor> clients = List.of(context.actor("A", options), context.actor("B", options), far);
        long streamEnd = context.history().now() + STREAM.toNanos();
        List<Future<Void>> loops = new ArrayList<>();
        for (Actor client : clients) {
            loops.add(context.background(() -> takeTurns(client, context.history(), streamEnd)));
        }
        for (Future<Void> loop : loops) {
            context.await(loop, DEADLINE);
        }
        int grants = 0;
        int farGrants = 0;
        long farLongestWait = 0;
        for (Event event : context.history().events()) {
            if (event.kind() != Kind.ACQUIRED) {
                continue;
            }
            if (event.at() <= streamEnd) {
                grants++;
            }
            if (event.actor().equals(far.name())) {
                farGrants += event.at() <= streamEnd ? 1 : 0;
                farLongestWait = Math.max(farLongestWait, event.at() - event.since());
            }
        }
        int fairShare = grants / clients.size();
        String tally = far.name() + " got " + farGrants + " of the " + grants + " grants in the " + STREAM.toMillis()
                + " ms (a fair share is " + fairShare + ") and waited up to "
                + TimeUnit.NANOSECONDS.toMillis(farLongestWait) + " ms";
        if (farGrants * STARVED_BELOW < fairShare) {
            return Verdict.violated(tally + ": A and B asked again the moment they let go, and were always first.");
        }
        return Verdict.held(tally + ": requests were served in the order they reached Redis.");
    }

    /** {@code client}'s worker loop: lock, hold, unlock, and again at once, until the stream ends. */
    private static Void takeTurns(Actor client, History history, long streamEnd) throws Exception {
        while (history.now() < streamEnd) {
            if (!client.tryLock(LOCK, WAIT, null)) {
                break;
            }
            Thread.sleep(HOLD.toMillis());
            client.unlock(LOCK);
        }
        return null;
    }
}
