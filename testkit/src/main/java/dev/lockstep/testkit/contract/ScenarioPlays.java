package dev.lockstep.testkit.contract;

import dev.lockstep.DistLock;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.history.Timeline;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.MonitorWatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;
import redis.clients.jedis.RedisClient;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Part of {@link LockContract}: the scenario catalogue on the stage (a claimed guarantee must hold,
 * an unclaimed one must be reproduced), the claims the stage reports, and its calls to Redis
 * outside any monitor. Random schedules that must keep the claims run beside, in a
 * {@link ScheduleContract} class of their own.
 */
public interface ScenarioPlays extends StageUnderTest {

    /**
     * The scenarios a password or TLS run plays again: those that open another kind of connection
     * (a child JVM, a client behind a fault link, a resubscription, a replica, a restarted node).
     * The others differ from the plain run only in how the sockets connect.
     */
    Set<String> OVER_EVERY_TRANSPORT = Set.of("crash-holder", "partitioned-holder", "lost-reply",
            "dropped-subscription", "failover+wait", "restart-amnesia");

    @ParameterizedTest(name = "{0}")
    @ArgumentsSource(ScenarioArguments.class)
    default void scenario(Scenario scenario) {
        assumeTrue(security() == ServerSecurity.NONE || OVER_EVERY_TRANSPORT.contains(scenario.id()),
                () -> scenario.id() + " plays alike on any transport: the plain run plays it");
        Outcome outcome = Outcome.run(stage(), scenario, fixture());
        scoreboard().add(outcome);
        assumeTrue(scenario.playsOn(stage()), () -> scenario.id() + " needs " + scenario.needsOn(stage()));
        check(stage(), outcome);
    }

    /**
     * Prints the outcome's report, and fails the test when the cell is {@code FAILED}, or, with
     * {@code -Dlockstep.strict=true}, {@code REPRODUCED}; also when a timeline row is too wide.
     */
    static void check(Stage stage, Outcome outcome) {
        String report = outcome.report();
        System.out.println("\n" + report);
        Timeline.render(outcome.history()).lines().filter(row -> row.length() > Timeline.COLUMNS).findFirst()
                .ifPresent(row -> fail("a timeline row is wider than " + Timeline.COLUMNS + " columns:\n" + row));
        boolean strict = Boolean.getBoolean("lockstep.strict");
        switch (outcome.cell()) {
            case PREVENTED -> {
            }
            case REPRODUCED -> {
                if (strict) {
                    fail("-Dlockstep.strict: " + stage + " does not prevent " + outcome.scenario().id() + "\n\n" + report);
                }
            }
            // The judgement first as well: a CI log cut short after a long timeline still says why.
            case FAILED -> fail(outcome.judgement() + "\n\n" + report, outcome.error());
            case NOT_PLAYED -> abort(stage + " / " + outcome.scenario().id() + " not played: " + outcome.error().getMessage()
                    + " in " + Outcome.PLAYS + " plays; the machine was too slow to set the story up");
            case NOT_APPLICABLE -> {
            }
        }
    }

    @Test
    default void claimsAreWhatTheStageReports() {
        assertEquals(claimed(), open().guarantees());
    }

    /**
     * No lock code holds a monitor while it writes to or reads from Redis: on JDK 21 to 23 a virtual
     * thread blocked on a socket inside {@code synchronized} pins its carrier thread. Holders, waiters
     * (asleep on pub/sub from stage 5 on), a timed-out try and an interrupted waiter, all on clients
     * that check every call ({@link MonitorWatch}). Alone: it dumps the calling thread's monitors on
     * every Redis call, which stops every thread of the JVM.
     */
    @Test
    @PlaysAlone
    default void talksToRedisWithoutHoldingAMonitor() throws Exception {
        assumeTrue(security() == ServerSecurity.NONE, "which monitors are held does not depend on the transport");
        MonitorWatch watch = new MonitorWatch();
        List<RedisClient> clients = new ArrayList<>();
        for (RedisNode node : nodes()) {
            clients.add(watch.client(node.address()));
        }
        Locks locks = openOn(clients, Stage.leaseOptions(Duration.ofSeconds(5)).withSpinInterval(Duration.ofMillis(20)));
        ExecutorService workers = Executors.newFixedThreadPool(4, task -> new Thread(task, "monitor-watch-worker"));
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                // Two names: a second channel joins and leaves a subscription already open.
                String name = "monitor-watch-" + w % 2;
                done.add(workers.submit(() -> {
                    DistLock lock = locks.get(name);
                    for (int round = 0; round < 5; round++) {
                        if (lock.tryLock(BOUNDED, null)) {
                            Thread.sleep(5);
                            lock.unlock();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : done) {
                worker.get(BOUNDED.toMillis() * 2, TimeUnit.MILLISECONDS);
            }
            DistLock held = locks.get("monitor-watch-0");
            assertTrue(held.tryLock(BOUNDED, null));
            Future<Boolean> timedOut = workers.submit(() -> locks.get("monitor-watch-0").tryLock(Duration.ofMillis(50), null));
            assertFalse(timedOut.get(BOUNDED.toMillis(), TimeUnit.MILLISECONDS));
            Future<Boolean> interrupted = workers.submit(() -> locks.get("monitor-watch-0").tryLock(BOUNDED, null));
            // If it has not begun to wait yet, the interrupt meets it at the start: checked all the same.
            Thread.sleep(50);
            interrupted.cancel(true);
            held.unlock();
        } finally {
            workers.shutdownNow();
            assertTrue(workers.awaitTermination(BOUNDED.toMillis(), TimeUnit.MILLISECONDS));
        }
        assertEquals(List.of(), watch.violations());
    }
}
