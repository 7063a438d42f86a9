package dev.lockstep.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this stage shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "FairLocks.<init>(UnifiedJedis, LockOptions)",
                "FairLocks.<init>(UnifiedJedis, LockOptions, Duration)",
                "FairLocks.protected newLock(String): DistLock",
                "FairLocks.static DEFAULT_WAITER_TIMEOUT: Duration",
                "class FairLocks"), PublicSurface.of(FairLocks.class));
    }
}
