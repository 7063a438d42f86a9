package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership;
import dev.lockstep.testkit.stage.Stage;
import java.util.Set;

/**
 * A documented failure, run on real Redis against one stage and judged from its recorded
 * {@link History}. A stage that claims {@link #guarantee()} must prevent it; any other stage
 * must reproduce it.
 */
public abstract class Scenario {

    private final String id;
    private final Guarantee guarantee;
    private final String story;

    /** A scenario called {@code id} that tries to break {@code guarantee}, told as {@code story}. */
    protected Scenario(String id, Guarantee guarantee, String story) {
        this.id = id;
        this.guarantee = guarantee;
        this.story = story;
    }

    /** The id used in the scoreboard and on the command line, e.g. {@code foreign-unlock}. */
    public final String id() {
        return id;
    }

    /** The guarantee this scenario tries to break. */
    public final Guarantee guarantee() {
        return guarantee;
    }

    /** The story in one or two sentences: who does what, and what goes wrong without the guarantee. */
    public final String story() {
        return story;
    }

    /**
     * The stories the alternatives beyond Redis play beside stage 7: a holder paused past its lease,
     * a lost server, and a read-modify-write with a paused holder waking in the middle.
     */
    public static final Set<String> BEYOND_REDIS = Set.of("paused-holder", "failover", "fenced-read-gap");

    /** Whether the story is told on {@code stage}: an alternative to Redis plays only {@link #BEYOND_REDIS}. */
    public final boolean playsOn(Stage stage) {
        return (!stage.alternative() || BEYOND_REDIS.contains(id)) && appliesTo(stage);
    }

    /** What {@code stage} lacks for this story, where {@link #playsOn} says no. */
    public final String needsOn(Stage stage) {
        return stage.alternative() && !BEYOND_REDIS.contains(id) ? "a Redis lock" : needs();
    }

    /** Whether the story can be told on {@code stage} at all (a node restart among several masters needs several). */
    public boolean appliesTo(Stage stage) {
        return true;
    }

    /** What a stage needs for this story, in a few words, where {@link #appliesTo} can say no; else null. */
    public String needs() {
        return null;
    }

    /**
     * Whether the verdict hangs on timing tight enough for a busy JVM to flip it (a wake-up within
     * 30 ms, a renewal before a 300 ms lease runs out): where the contract's tests run side by side,
     * this one runs alone ({@link TimingSlot}).
     */
    public boolean timed() {
        return false;
    }

    /**
     * Whether the verdict judges a measure against a limit (requests and wake-up lag, a share of the
     * grants) rather than safety: on a machine shared with other work such a play is replayed when
     * it disagrees with the stage's claim ({@link Outcome#run}). A safety verdict is never replayed.
     */
    public boolean measured() {
        return false;
    }

    /** Plays the story against {@code context.stage()} and judges the history it recorded. */
    public abstract Verdict run(ScenarioContext context) throws Exception;

    @Override
    public String toString() {
        return id;
    }

    /**
     * The token of the hold {@code holder} just took of {@code lock}, once it is known to hold it: a
     * child JVM that could not renew its lease in time on a busy machine lost it before the story began.
     */
    protected static Long tokenOfAFreshHold(ClientProcess holder, String lock) {
        Long token;
        try {
            token = holder.token(lock);
        } catch (IllegalStateException lostAlready) {
            throw new TooSlowToPlay(holder.name() + " lost the lock it just took before it could read its token");
        }
        if (!holder.checkHolds(lock)) {
            throw new TooSlowToPlay(holder.name() + " does not hold the lock it just took");
        }
        return token;
    }

    /**
     * {@code waiter} got the lock {@code lagMillis} after {@code holder}'s unlock at {@code released}
     * (nanoseconds into the history), later than a free lock takes: that counts against the lock only
     * when {@code holder}'s key outlived the unlock by its lease, expiring after it on the node or on a
     * quorum of nodes. With no such expiry a machine busy with other work kept the waiter out, not
     * {@code suspect}: the lock was free, or freed by the unlock's own late requests, and the play is
     * too slow to judge.
     */
    protected static void requireKeyOutlivedUnlock(History history, String holder, String waiter, long released,
            long lagMillis, Stage stage, String suspect) {
        long expiredOn = KeyOwnership.of(history).holds().stream()
                .filter(hold -> hold.owner().equals(holder) && hold.end() == Kind.EXPIRED && hold.to() > released)
                .map(KeyOwnership.Hold::node).distinct().count();
        if (expiredOn < (stage.multiNode() ? Stage.QUORUM_NODES / 2 + 1 : 1)) {
            throw new TooSlowToPlay(waiter + " got the lock " + lagMillis + " ms after " + holder + "'s unlock, yet no "
                    + "lease of " + holder + "'s ran out after it: the machine, not " + suspect + ", kept " + waiter
                    + " out");
        }
    }

    /**
     * The judgement of one run.
     *
     * @param violated    whether the guarantee was broken
     * @param explanation one sentence a learner can read under the timeline
     */
    public record Verdict(boolean violated, String explanation) {

        /** The guarantee was broken: {@code explanation} says how. */
        public static Verdict violated(String explanation) {
            return new Verdict(true, explanation);
        }

        /** The guarantee held: {@code explanation} says what was checked. */
        public static Verdict held(String explanation) {
            return new Verdict(false, explanation);
        }
    }
}
