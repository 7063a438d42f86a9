package dev.lockstep.starter;

import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.OwnerHolds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The read-only Actuator endpoint {@code locks}: the locks this instance holds now, as its client
 * counts them (each owner's holds, whatever Redis says), with each lock's lease left as Redis
 * says. Expose it as any endpoint: {@code management.endpoints.web.exposure.include=locks}.
 */
@Endpoint(id = "locks")
public class LocksEndpoint {

    private final Locks locks;
    private final LockKind kind;

    /** Shows what {@code locks}, a client of {@code kind}, holds. */
    public LocksEndpoint(Locks locks, LockKind kind) {
        this.locks = locks;
        this.kind = kind;
    }

    /** Every hold this instance has now, one line per lock and owner; asks Redis only for the leases left. */
    @ReadOperation
    public HeldLocks locks() {
        List<HeldLock> held = new ArrayList<>();
        // An application's own Locks that is not Lockstep's cannot say what it holds: it shows none.
        if (locks instanceof AbstractLocks client) {
            client.holds().forEach((lock, owners) -> {
                if (!owners.isEmpty()) {
                    Long leaseLeft = leaseLeftMillis(lock);
                    for (OwnerHolds owner : owners) {
                        held.add(new HeldLock(lock.name(), kindOf(lock), owner.since(), leaseLeft, owner.owner(),
                                owner.holds()));
                    }
                }
            });
        }
        return new HeldLocks(locks.clientId(), kind.id(), held);
    }

    private String kindOf(DistLock lock) {
        if (kind != LockKind.READ_WRITE) {
            return kind.id();
        }
        // The client hands out the write side; the read side is the other object.
        return kind.id() + (lock instanceof ReadWriteDistLock ? " (write)" : " (read)");
    }

    /** The lease left as Redis says, in milliseconds; null when Redis does not answer. */
    private static Long leaseLeftMillis(DistLock lock) {
        try {
            return lock.remainingLease().toMillis();
        } catch (LockException unreachable) {
            return null;
        }
    }

    /**
     * What this instance holds.
     *
     * @param clientId the client's id, the first part of every owner record it writes in Redis
     * @param kind     {@code lockstep.kind}
     * @param locks    one line per lock and owner
     */
    public record HeldLocks(String clientId, String kind, List<HeldLock> locks) implements OperationResponseBody {
    }

    /**
     * One owner's holds of one lock.
     *
     * @param name           the lock's name (a lock over several names joins them with {@code +})
     * @param kind           the lock's kind; for {@code read-write}, which side
     * @param heldSince      when the owner took its first hold, by this instance's clock
     * @param leaseLeftMillis the lock's lease left as Redis says (0: gone); null when Redis did not answer
     * @param owner          a thread's name, or a hold's that belongs to no thread ({@code @Locked} methods take these)
     * @param holds          the owner's holds (each re-entry counts)
     */
    public record HeldLock(String name, String kind, Instant heldSince, Long leaseLeftMillis, String owner, int holds) {
    }
}
