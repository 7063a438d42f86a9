package dev.lockstep.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v4.WatchdogLocks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.junit.jupiter.api.Test;

/**
 * Two nodes schedule the same job every 100 ms for 30 s, each through ShedLock's own executor
 * and its own Lockstep client: the job runs at most once per tick, never twice at once, and never
 * starts inside the previous run's {@code lockAtLeastFor}.
 *
 * <p>Both schedulers fire at the same instants of a shared clock (a fixed-rate schedule's n-th
 * firing is tick n, however late it runs), and the job keeps its lock for at least 90 ms, so the
 * runner-up of a tick finds the lock taken unless it fires 90 ms after the winner.
 */
class TwoSchedulersTest extends SingleNodeTest {

    private static final Duration TICK = Duration.ofMillis(100);
    private static final Duration RUN_FOR = Duration.ofSeconds(30);
    private static final Duration AT_LEAST = Duration.ofMillis(90);
    private static final Duration AT_MOST = Duration.ofSeconds(10);
    private static final Duration WORK = Duration.ofMillis(5);
    /** Clock reads in the job and in the lingering release's timer may differ by this much. */
    private static final Duration CLOCK_SLACK = Duration.ofMillis(3);

    /** One run of the job: which node, for which tick of the schedule, and when. */
    private record Run(String node, long tick, Instant lockAtLeastUntil, Instant start, Instant end) {
    }

    @Test
    void theJobRunsAtMostOncePerTickAndNeverTwiceAtOnce() throws Exception {
        Queue<Run> runs = new ConcurrentLinkedQueue<>();
        Queue<RuntimeException> errors = new ConcurrentLinkedQueue<>();
        List<LockingTaskExecutor> executors = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            LockstepLockProvider provider = new LockstepLockProvider(
                    closedAfter(new WatchdogLocks(closedAfter(node.newClient()), LockOptions.defaults())));
            // A first lock loads the scripts and opens connections: not a cost the first tick should pay.
            provider.lock(new LockConfiguration(Instant.now(), "warm-up-" + name, AT_MOST, Duration.ZERO))
                    .orElseThrow().unlock();
            executors.add(new DefaultLockingTaskExecutor(provider));
        }
        Instant origin = Instant.now().plusMillis(200);
        List<ScheduledExecutorService> schedulers = new ArrayList<>();
        for (int i = 0; i < executors.size(); i++) {
            String name = List.of("a", "b").get(i);
            LockingTaskExecutor executor = executors.get(i);
            AtomicLong fired = new AtomicLong();
            ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
            schedulers.add(scheduler);
            scheduler.scheduleAtFixedRate(() -> tick(name, fired.getAndIncrement(), executor, runs, errors),
                    Duration.between(Instant.now(), origin).toNanos(), TICK.toNanos(), TimeUnit.NANOSECONDS);
        }
        Instant stopAt = origin.plus(RUN_FOR);
        schedulers.forEach(s -> s.schedule(s::shutdown, Duration.between(Instant.now(), stopAt).toNanos(),
                TimeUnit.NANOSECONDS));
        for (ScheduledExecutorService scheduler : schedulers) {
            assertTrue(scheduler.awaitTermination(RUN_FOR.plusSeconds(15).toSeconds(), TimeUnit.SECONDS),
                    "scheduler did not stop");
        }

        assertEquals(List.of(), List.copyOf(errors), "a tick failed");
        List<Run> sorted = runs.stream().sorted(Comparator.comparing(Run::start)).toList();
        long ticks = RUN_FOR.dividedBy(TICK);
        System.out.printf("two schedulers, %d ticks of %d ms: %d runs (%s)%n", ticks, TICK.toMillis(), sorted.size(),
                sorted.stream().collect(Collectors.groupingBy(Run::node, Collectors.counting())));
        for (int i = 1; i < sorted.size(); i++) {
            Run before = sorted.get(i - 1);
            Run after = sorted.get(i);
            assertTrue(!after.start().isBefore(before.end()), "runs overlap: " + before + " and " + after);
            assertTrue(!after.start().isBefore(before.lockAtLeastUntil().minus(CLOCK_SLACK)),
                    "a run started inside the previous one's lockAtLeastFor: " + before + " then " + after);
        }
        Map<Long, List<Run>> byTick = sorted.stream().collect(Collectors.groupingBy(Run::tick));
        byTick.forEach((tick, inTick) -> assertEquals(1, inTick.size(), "tick " + tick + " ran " + inTick));
        assertTrue(sorted.size() > ticks / 3, "the job ran only " + sorted.size() + " times in " + ticks + " ticks");
    }

    /** One firing of one node's schedule; a failure is recorded, since it would end a fixed-rate schedule silently. */
    private static void tick(String node, long tick, LockingTaskExecutor executor, Queue<Run> runs,
                             Queue<RuntimeException> errors) {
        LockConfiguration config = new LockConfiguration(Instant.now(), "every-100-ms", AT_MOST, AT_LEAST);
        try {
            executor.executeWithLock((Runnable) () -> {
                Instant start = Instant.now();
                work();
                runs.add(new Run(node, tick, config.getLockAtLeastUntil(), start, Instant.now()));
            }, config);
        } catch (RuntimeException e) {
            errors.add(e);
        }
    }

    private static void work() {
        try {
            Thread.sleep(WORK.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
