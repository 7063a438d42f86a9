package dev.lockstep;

/** A promise a stage makes; each one has a scenario in the contract suite that tries to break it. */
public enum Guarantee {
    /** A holder that dies cannot block the lock forever: its lease runs out. */
    LIVENESS_AFTER_CRASH,
    /** Only the owner's unlock releases the lock; anyone else's is refused. */
    OWNER_ONLY_RELEASE,
    /** A holder may take the same lock again and must unlock as often. */
    REENTRANT,
    /** A live holder keeps the lock however long its work takes. */
    LEASE_RENEWAL,
    /** A holder that loses its lease is told before another client can hold the lock. */
    LEASE_LOSS_SIGNAL,
    /**
     * A lock call whose reply was lost (Redis ran it, the caller heard nothing) may simply be
     * retried: the grant it left behind ends with the caller's last unlock, not a lease later, nor never.
     */
    RETRY_SAFE,
    /** Waiters sleep until a release instead of polling Redis. */
    EFFICIENT_WAIT,
    /**
     * A waiter whose subscription connection was dropped still wakes within moments of a release
     * published while nobody listened, not a holder's lease later.
     */
    WAKE_AFTER_RECONNECT,
    /** The lock survives the loss of a Redis master. */
    FAILOVER_SAFE,
    /** With replica sync on, an acquisition counts only once a replica has it: the lock survives a failover to it. */
    REPLICATED_ACQUIRE,
    /**
     * A holder that paused past its lease cannot overwrite its successor's work: every hold carries
     * a token greater than all before it, and the resource refuses a write with an older one.
     */
    FENCED,
    /** Readers hold the lock at once, and a writer holds it alone: a read lock beside the write lock. */
    SHARED_READS,
    /** A writer gets in while readers keep coming: new readers wait behind a waiting writer. */
    WRITER_NOT_STARVED,
    /** Waiters get the lock in the order their requests reached Redis: a slow client is not overtaken by faster ones. */
    FAIR_ORDER,
    /** The lock survives a node that restarts without the lock's key while others are unreachable: no one claims it. */
    RESTART_SAFE,
    /** Callers that take several names, listed in any order, never wait for each other forever. */
    NO_DEADLOCK,
    /** A call that takes several names takes all of them or none: a failure on one gives back the others. */
    ALL_OR_NOTHING
}
