package dev.lockstep.v7;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this stage shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "FencedLocks.<init>(UnifiedJedis, LockOptions)",
                "FencedLocks.get(String): FencedLock",
                "FencedLocks.protected newLock(String): FencedLock",
                "class FencedLocks"), PublicSurface.of(FencedLocks.class));
    }
}
