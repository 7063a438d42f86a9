package dev.lockstep.v3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this stage shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "ReentrantHashLocks.<init>(UnifiedJedis, LockOptions)",
                "ReentrantHashLocks.protected newLock(String): DistLock",
                "class ReentrantHashLocks"), PublicSurface.of(ReentrantHashLocks.class));
    }
}
