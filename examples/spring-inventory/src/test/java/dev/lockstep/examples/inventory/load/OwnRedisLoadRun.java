package dev.lockstep.examples.inventory.load;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.examples.inventory.Stage;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A test class of the load run, on the smaller load and its own Redis: two instances of the
 * service in their own JVMs, real HTTP, one real Redis. Each such class runs in a test JVM of its
 * own, so the variants' runs go side by side.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OwnRedisLoadRun {

    /** The run's Redis and logs, for the class's tests. */
    LoadRun load;

    @BeforeAll
    void startRedis() {
        load = new LoadRun(Path.of("target/load-logs"), true);
    }

    @AfterAll
    void stopRedis() {
        load.close();
    }

    /** Under {@code variant}, stage {@code before} sells a unit twice and {@code first}, which claims to survive it, does not. */
    void beforeOversellsAndFirstDoesNot(Variant variant, Stage before, Stage first) throws Exception {
        RunResult broken = load.run(variant, before);
        System.out.println(Report.line(broken));
        RunResult kept = load.run(variant, first);
        System.out.println(Report.line(kept));
        assertAll(
                () -> assertFalse(broken.claimed(), before + " does not claim to survive " + variant.title),
                () -> assertTrue(kept.claimed(), first + " claims to survive " + variant.title),
                () -> assertTrue(broken.oversold() > 0, before + " sold no unit twice: " + broken),
                () -> assertEquals(0, kept.oversold(), first + " sold units twice: " + kept),
                () -> assertEquals(0, broken.otherAnswers() + kept.otherAnswers(), "answers other than 201, 409, 503"));
    }
}
