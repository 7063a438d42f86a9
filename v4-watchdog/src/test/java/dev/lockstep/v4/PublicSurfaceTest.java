package dev.lockstep.v4;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this stage shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "WatchdogLocks.<init>(UnifiedJedis, LockOptions)",
                "WatchdogLocks.close(): void",
                "WatchdogLocks.protected <init>(UnifiedJedis, LockOptions, Set)",
                "WatchdogLocks.protected newLock(String): DistLock",
                "WatchdogLocks.protected watchdog(): Watchdog",
                "class WatchdogLocks"), PublicSurface.of(WatchdogLocks.class));
    }
}
