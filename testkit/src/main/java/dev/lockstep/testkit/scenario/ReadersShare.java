package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;

/**
 * Four readers in two clients ask at once to read for {@value #READ_MILLIS} ms. Under a read lock
 * they are inside together; a plain lock lets them in one at a time, so the last one waits for
 * three reads it did not need to wait for. Judged by {@link Checker#mostReadersAtOnce}.
 */
public final class ReadersShare extends Scenario {

    private static final String LOCK = "catalog";
    private static final long READ_MILLIS = 300;
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** The scenario as the catalog lists it. */
    public ReadersShare() {
        super("readers-share", Guarantee.SHARED_READS,
                "Four readers in two clients ask at once to read for " + READ_MILLIS + " ms: a read lock lets them in "
                + "together, a plain lock one at a time.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.scenarioOptions();
        Actor a = context.actor("A", options);
        Actor b = context.actor("B", options);
        List<Actor> readers = List.of(a.sibling("r1"), a.sibling("r2"), b.sibling("r1"), b.sibling("r2"));
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> reads = new ArrayList<>();
        for (Actor reader : readers) {
            reads.add(context.background(() -> {
                go.await();
                if (!reader.tryReadLock(LOCK, WAIT)) {
                    return false;
                }
                reader.read(Duration.ofMillis(READ_MILLIS));
                reader.readUnlock(LOCK);
                return true;
            }));
        }
        long started = context.history().now();
        go.countDown();
        for (Future<Boolean> read : reads) {
            if (!context.await(read, DEADLINE)) {
                throw new IllegalStateException("a reader did not get in within " + WAIT.toMillis() + " ms");
            }
        }
        long tookMillis = (context.history().now() - started) / 1_000_000;
        int most = Checker.mostReadersAtOnce(context.history());
        if (most < 2) {
            return Verdict.violated("the readers took turns, one inside at a time: four reads of " + READ_MILLIS
                    + " ms took " + tookMillis + " ms.");
        }
        return Verdict.held(most + " readers were inside at once: four reads of " + READ_MILLIS + " ms took "
                + tookMillis + " ms.");
    }
}
