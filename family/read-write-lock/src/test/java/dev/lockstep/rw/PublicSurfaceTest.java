package dev.lockstep.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this stage shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "ReadWriteLocks.<init>(UnifiedJedis, LockOptions)",
                "ReadWriteLocks.get(String): ReadWriteDistLock",
                "ReadWriteLocks.protected newLock(String): ReadWriteDistLock",
                "class ReadWriteLocks"), PublicSurface.of(ReadWriteLocks.class));
    }
}
