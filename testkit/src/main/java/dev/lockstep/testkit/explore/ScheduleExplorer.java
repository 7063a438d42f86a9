package dev.lockstep.testkit.explore;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.Timeline;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Future;

/**
 * Random schedules beyond the fixed scenarios: a few clients take and release one lock with
 * random pauses, waits, hold times around the lease, re-entries and crashes, and the history is
 * checked against the guarantees the stage claims. Each schedule comes from a seed: a failure
 * prints it, and {@code -Dlockstep.seed=N} replays that schedule's choices.
 */
public final class ScheduleExplorer {

    private static final String LOCK = "explored";
    private static final int CLIENTS = 3;
    private static final int SCHEDULES = 2;
    private static final Duration RUN = Duration.ofMillis(2500);
    private static final Duration LEASE = Duration.ofMillis(300);
    private static final Duration SPIN = Duration.ofMillis(50);
    /** A free lock must be taken by a waiter within this; more is a liveness failure. */
    private static final Duration LIVENESS_SLACK = SPIN.plusMillis(450);
    private static final double CRASH = 0.1;
    private static final double REENTER = 0.3;

    private final Stage stage;
    private final RedisFixture fixture;
    private final Set<Guarantee> claims;

    /** An explorer of {@code stage} that checks {@code claims}. */
    public ScheduleExplorer(Stage stage, RedisFixture fixture, Set<Guarantee> claims) {
        this.stage = stage;
        this.fixture = fixture;
        this.claims = claims;
    }

    /**
     * The result of a run of schedules.
     *
     * @param seeds        the seeds explored
     * @param acquisitions how many times a client took the lock, over all schedules
     * @param crashes      how many clients crashed holding it
     * @param broken       the first broken claim, with its seed and timeline, if any
     */
    public record Report(List<Long> seeds, int acquisitions, int crashes, Optional<String> broken) {

        /** Whether every claim held. */
        public boolean passed() {
            return broken.isEmpty();
        }

        /** One line for the log. */
        public String summary() {
            return "explored " + seeds.size() + " random schedules (seeds " + seeds + "): " + acquisitions
                    + " acquisitions, " + crashes + " crashes" + (passed() ? ", every claim held" : ", a claim broke");
        }

        /** The failure message: the seed, how to replay it, the violation and its timeline. */
        public String failure() {
            return broken.orElse("");
        }
    }

    /** Explores the seed given by {@code -Dlockstep.seed}, or a few fresh random seeds. */
    public Report explore() throws Exception {
        String fixed = System.getProperty("lockstep.seed", "");
        List<Long> seeds = new ArrayList<>();
        if (!fixed.isBlank()) {
            seeds.add(Long.parseLong(fixed.trim()));
        } else {
            Random fresh = new Random();
            for (int i = 0; i < SCHEDULES; i++) {
                seeds.add(fresh.nextLong());
            }
        }
        int acquisitions = 0;
        int crashes = 0;
        for (long seed : seeds) {
            try (ScenarioContext context = new ScenarioContext(stage, fixture)) {
                play(context, seed);
                History history = context.history();
                acquisitions += (int) history.events().stream()
                        .filter(e -> e.kind() == Kind.ACQUIRED && e.depth() == 1).count();
                crashes += (int) history.events().stream().filter(e -> e.kind() == Kind.CRASH).count();
                Optional<String> broken = new BrokenClaims(claims, LEASE, LIVENESS_SLACK).first(history);
                if (broken.isPresent()) {
                    String failure = stage + " broke a claim in random schedule " + seed + ": " + broken.get()
                            + "\nreplay with -Dlockstep.seed=" + seed + "\n\n" + Timeline.render(history);
                    return new Report(seeds, acquisitions, crashes, Optional.of(failure));
                }
            }
        }
        return new Report(seeds, acquisitions, crashes, Optional.empty());
    }

    private void play(ScenarioContext context, long seed) throws Exception {
        Random schedule = new Random(seed);
        LockOptions options = Stage.leaseOptions(LEASE).withSpinInterval(SPIN);
        List<Future<Void>> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            Actor actor = context.actor(String.valueOf((char) ('A' + i)), options);
            Random choices = new Random(schedule.nextLong());
            clients.add(context.background(() -> {
                client(actor, choices);
                return null;
            }));
        }
        for (Future<Void> client : clients) {
            context.await(client, RUN.multipliedBy(4));
        }
    }

    /** One client's loop: pause, wait for the lock, maybe re-enter, hold, then unlock or crash. */
    private void client(Actor actor, Random choices) throws InterruptedException {
        long end = System.nanoTime() + RUN.toNanos();
        while (System.nanoTime() < end) {
            Thread.sleep(between(choices, 0, LEASE.toMillis() / 2));
            Duration wait = Duration.ofMillis(between(choices, LEASE.toMillis() / 2, LEASE.toMillis() * 2));
            if (!actor.tryLock(LOCK, wait, null)) {
                continue;
            }
            boolean reenter = claims.contains(Guarantee.REENTRANT) && choices.nextDouble() < REENTER;
            if (reenter && !actor.tryLock(LOCK, Duration.ZERO, null)) {
                actor.note("re-lock FAILED");
                reenter = false;
            }
            Duration hold = Duration.ofMillis(between(choices, LEASE.toMillis() / 5, LEASE.toMillis() * 3 / 2));
            if (choices.nextDouble() < CRASH) {
                actor.enter("enter");
                Thread.sleep(hold.toMillis() / 2);
                actor.crash();
                return;
            }
            actor.critical(hold);
            if (reenter) {
                actor.unlock(LOCK);
            }
            actor.unlock(LOCK);
        }
    }

    private static long between(Random random, long from, long to) {
        return from + (long) (random.nextDouble() * (to - from));
    }
}
