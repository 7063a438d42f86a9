package dev.lockstep.v5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this stage shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "PubSubLocks.<init>(UnifiedJedis, LockOptions)",
                "PubSubLocks.close(): void",
                "PubSubLocks.protected <init>(UnifiedJedis, LockOptions, Set)",
                "PubSubLocks.protected newLock(String): DistLock",
                "PubSubLocks.protected static claimsAnd(Guarantee[]): Set",
                "PubSubLocks.protected subscriber(): Subscriber",
                "class PubSubLocks"), PublicSurface.of(PubSubLocks.class));
    }
}
