package dev.lockstep.v6;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this stage shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "MultiLocks.<init>(List, LockOptions)",
                "NoQuorumException.failedNodes(): Map",
                "RedLocks.<init>(List, LockOptions)",
                "class MultiLocks",
                "class NoQuorumException",
                "class RedLocks"), PublicSurface.of(RedLocks.class));
    }
}
