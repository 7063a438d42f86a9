package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.contract.PublicSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What this family member shows its users, pinned: a change here is a change to its API. */
class PublicSurfaceTest {

    @Test
    void thePublicSurfaceIsTheDocumentedOne() {
        assertEquals(List.of(
                "MultiNameLock.<init>(DistLock[])",
                "MultiNameLock.<init>(List)",
                "MultiNameLock.extend(Duration): void",
                "MultiNameLock.forceUnlock(): boolean",
                "MultiNameLock.holdCount(): int",
                "MultiNameLock.isHeldByCurrentThread(): boolean",
                "MultiNameLock.isLocked(): boolean",
                "MultiNameLock.lock(): void",
                "MultiNameLock.lock(Duration): void",
                "MultiNameLock.lockInterruptibly(): void",
                "MultiNameLock.name(): String",
                "MultiNameLock.onLeaseLost(Consumer): void",
                "MultiNameLock.parts(): List",
                "MultiNameLock.remainingLease(): Duration",
                "MultiNameLock.tryAcquire(Duration, Duration): Optional",
                "MultiNameLock.tryLock(): boolean",
                "MultiNameLock.tryLock(Duration, Duration): boolean",
                "MultiNameLock.tryLock(long, TimeUnit): boolean",
                "MultiNameLock.unlock(): void",
                "MultiNameLocks.<init>(UnifiedJedis, LockOptions)",
                "MultiNameLocks.getAll(String[]): DistLock",
                "MultiNameLocks.protected newLock(String): DistLock",
                "class MultiNameLock",
                "class MultiNameLocks"), PublicSurface.of(MultiNameLock.class));
    }
}
