package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Overlap;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;

/**
 * A writes while two readers of another client ask to read; once they read, a third client asks
 * to write. No read may overlap a write: the readers wait for A, and C waits for the readers.
 * Judged by {@link Checker#readsBesideWrites}.
 */
public final class WriterExcludes extends Scenario {

    private static final String LOCK = "catalog";
    private static final Duration WRITE = Duration.ofMillis(400);
    private static final Duration READ = Duration.ofMillis(300);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** The scenario as the catalog lists it. */
    public WriterExcludes() {
        super("writer-excludes", Guarantee.SHARED_READS,
                "A writes while two readers ask to read; as they read, C asks to write. No read may overlap a write.");
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
        Actor a = context.actor("A", options);
        Actor b = context.actor("B", options);
        Actor c = context.actor("C", options);
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        a.enter("writes");
        List<Future<Boolean>> reads = List.of(readWhenLet(context, b.sibling("r1")), readWhenLet(context, b.sibling("r2")));
        Thread.sleep(WRITE.toMillis());
        a.exit("done writing");
        a.unlock(LOCK);
        Await.until("both readers read", WAIT, () -> context.history().events().stream()
                .filter(e -> e.kind() == Kind.READ_ENTER).count() == 2);
        Future<Boolean> write = context.background(() -> {
            if (!c.tryLock(LOCK, WAIT, null)) {
                return false;
            }
            c.critical(Duration.ofMillis(100));
            c.unlock(LOCK);
            return true;
        });
        for (Future<Boolean> read : reads) {
            if (!context.await(read, DEADLINE)) {
                throw new IllegalStateException("a reader never got in after A's write");
            }
        }
        if (!context.await(write, DEADLINE)) {
            throw new IllegalStateException("C never got in after the reads");
        }
        List<Overlap> overlaps = Checker.readsBesideWrites(context.history());
        if (!overlaps.isEmpty()) {
            return Verdict.violated(overlaps.get(0) + ": a read overlapped a write.");
        }
        return Verdict.held("the readers waited for A's write, and C's write waited for both reads.");
    }

    private static Future<Boolean> readWhenLet(ScenarioContext context, Actor reader) {
        return context.background(() -> {
            if (!reader.tryReadLock(LOCK, WAIT)) {
                return false;
            }
            reader.read(READ);
            reader.readUnlock(LOCK);
            return true;
        });
    }
}
