package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Two readers in two clients take turns so that one of them always reads: each takes the read
 * lock while the other still holds it, then lets go. A writer asks in the middle of the stream.
 * If new readers may enter while a writer waits, the writer never gets in while the stream lasts.
 */
public final class WriterStarvation extends Scenario {

    private static final String LOCK = "catalog";
    private static final Duration READ = Duration.ofMillis(100);
    private static final Duration STREAM = Duration.ofMillis(2500);
    private static final Duration WRITER_WAIT = Duration.ofMillis(1500);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** The scenario as the catalog lists it. */
    public WriterStarvation() {
        super("writer-starvation", Guarantee.WRITER_NOT_STARVED,
                "Two readers take turns so that one always reads; a writer asks in the middle and waits "
                + WRITER_WAIT.toMillis() + " ms: do new readers wait behind it?");
    }

    @Override
    public String needs() {
        return "a read side";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage.readWrite();
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.scenarioOptions();
        Actor[] readers = {context.actor("B", options), context.actor("C", options)};
        Actor writer = context.actor("W", options);
        // turn[i]: reader i may take the read lock; taken[i]: it has again, so the other may let go.
        Semaphore[] turn = {new Semaphore(1), new Semaphore(0)};
        Semaphore[] taken = {new Semaphore(0), new Semaphore(0)};
        CountDownLatch streaming = new CountDownLatch(1);
        long until = System.nanoTime() + STREAM.toNanos();
        Future<?> first = context.background(() -> takeTurns(readers[0], turn, taken, 0, until, streaming));
        Future<?> second = context.background(() -> takeTurns(readers[1], turn, taken, 1, until, streaming));
        if (!streaming.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the first reader never got in");
        }
        long asked = context.history().now();
        boolean wrote = writer.tryLock(LOCK, WRITER_WAIT, null);
        long waitedMillis = (context.history().now() - asked) / 1_000_000;
        if (wrote) {
            writer.critical(Duration.ofMillis(50));
            writer.unlock(LOCK);
        }
        context.await(first, DEADLINE);
        context.await(second, DEADLINE);
        if (!wrote) {
            return Verdict.violated("the writer waited " + waitedMillis + " ms and never got in: each new reader "
                    + "entered beside the one still reading, so the lock never came free for it.");
        }
        return Verdict.held("the writer got in after " + waitedMillis + " ms: new readers waited behind it.");
    }

    /** Reader {@code me}'s side of the stream: take the read lock while the other still reads, then let go. */
    private static Void takeTurns(Actor me, Semaphore[] turn, Semaphore[] taken, int i, long until,
                                  CountDownLatch streaming) throws Exception {
        int other = 1 - i;
        boolean opens = i == 0;
        while (System.nanoTime() < until) {
            if (!turn[i].tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS) || System.nanoTime() >= until) {
                break;
            }
            if (!me.tryReadLock(LOCK, WAIT)) {
                break;
            }
            if (opens) {
                // The stream's first read has nobody to hand over from.
                streaming.countDown();
                opens = false;
            } else {
                taken[i].release();
            }
            me.read(READ);
            turn[other].release();
            // Let go only once the other reads too: the lock is never free while the stream lasts.
            long streamLeft = Math.max(0, until - System.nanoTime());
            boolean handedOver = taken[other].tryAcquire(streamLeft + READ.toNanos(), TimeUnit.NANOSECONDS);
            me.readUnlock(LOCK);
            if (!handedOver) {
                break;
            }
        }
        turn[other].release();
        return null;
    }
}
