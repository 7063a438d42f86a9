package dev.lockstep.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this stage shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "OwnerCheckLocks.<init>(UnifiedJedis, LockOptions)",
                "OwnerCheckLocks.protected newLock(String): DistLock",
                "class OwnerCheckLocks"), PublicSurface.of(OwnerCheckLocks.class));
    }
}
