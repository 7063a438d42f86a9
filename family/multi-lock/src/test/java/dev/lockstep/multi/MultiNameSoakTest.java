package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.soak.Soak;
import dev.lockstep.testkit.soak.SoakVerdict;
import dev.lockstep.testkit.stage.Stages;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The soak of the {@code multi-lock} stage: client JVMs whose rounds take one name or, half the
 * time, 2 or 3 of them as one lock ({@code getAll}), while random faults hit the server and the
 * clients' side of the wire. No name's sections overlap, no part is left held, no key lacks a TTL.
 * {@code -Dlockstep.soak.seconds} sets how long faults are injected: 6 s by default, to keep the
 * suite quick; {@code -Dlockstep.seed} replays a fault draw.
 */
class MultiNameSoakTest {

    private static final Duration FAULTS = Duration.ofSeconds(Long.getLong("lockstep.soak.seconds", 6));

    @Test
    void compositesKeepEveryClaimUnderFaults() throws InterruptedException {
        long seed = Long.getLong("lockstep.seed", System.currentTimeMillis());
        SoakVerdict verdict;
        try (RedisFixture fixture = RedisFixture.processes()) {
            verdict = Soak.run(Stages.named("multi-lock"), fixture, Soak.Settings.of(FAULTS, seed), System.out);
        }
        String replay = " (seed " + seed + ")";
        assertEquals(List.of(), verdict.overlaps(), "sections that overlapped on one name" + replay);
        assertEquals(List.of(), verdict.stuck(), "parts still held after every client stopped" + replay);
        assertEquals(0, verdict.keysWithoutTtl(), "lock keys seen without a TTL" + replay);
        assertTrue(verdict.acquisitions() > 0, "no name was ever taken" + replay);
        System.out.printf("multi-lock soak, %s of faults, seed %d: %d faults %s, %d acquisitions (one per name),"
                        + " %d re-entries, %d forceUnlocks, %d interrupted waits, %d failed calls, %d waits given up,"
                        + " %d losses signalled; wake-up p50 %d ms, p99 %d ms, worst %d ms, worst with no fault %d ms;"
                        + " slowest: %s%n",
                FAULTS, seed, verdict.faults(), verdict.faultCounts(), verdict.acquisitions(), verdict.reentries(),
                verdict.forced(), verdict.interrupted(), verdict.errors(), verdict.gaveUp(), verdict.losses(),
                verdict.wakeUpMillis(0.5), verdict.wakeUpMillis(0.99), verdict.wakeUpMillis(1.0),
                verdict.worstQuietWakeUpMillis(), verdict.worstWakeUps());
    }
}
