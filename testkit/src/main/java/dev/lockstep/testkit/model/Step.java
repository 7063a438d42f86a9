package dev.lockstep.testkit.model;

/**
 * One step of a modelled history: a call by one owner (client slot and thread slot), or a fault.
 * Steps are plain data drawn from a seed before the run, so a history replays exactly and shrinks
 * by dropping steps: each step means something whatever came before it (an unlock by a thread that
 * holds nothing must be refused; a lock call on a held lock waits a bounded time).
 *
 * @param kind   what happens
 * @param client the client slot (0 = A, 1 = B, ...), for calls and client faults
 * @param thread the owner slot within the client: a thread (0 = 1, 1 = 2), or a hold handle
 *               ({@link ModelSetup#THREADS} = h1, ...) for the handle's steps
 * @param side   the read or write side (write on every lock without a read side)
 * @param millis the kind's duration: a wait, a lease, a stall, a delay before an interrupt
 * @param fault  a fault on the wire during this call, or {@link WireFault#NONE}
 */
public record Step(Kind kind, int client, int thread, Side side, long millis, WireFault fault) {

    /** What a step does. */
    public enum Kind {
        /** {@code lock()}: blocks; when another live owner holds the lock, a bounded {@code tryLock(millis)} instead. */
        LOCK,
        /** {@code tryLock()}: one attempt. */
        TRY_LOCK,
        /** {@code tryLock(wait = millis, lease = null)}: waits, watchdog lease. */
        TRY_LOCK_WAIT,
        /** {@code tryLock(wait = 0, lease = millis)}: a fixed lease, no watchdog. */
        TRY_LOCK_LEASE,
        /** {@code lock(lease = millis)}: blocks for a fixed lease; when another live owner holds the lock, a bounded {@code tryLock} instead. */
        LOCK_LEASE,
        /** {@code tryLock(millis, MILLISECONDS)}: {@link java.util.concurrent.locks.Lock}'s own timed form, watchdog lease. */
        TRY_LOCK_UNIT,
        /** {@code tryLock(wait = millis)} on the owner's thread, left waiting while the next steps run. */
        CONTEND,
        /** {@code unlock()}. */
        UNLOCK,
        /** {@code tryAcquire(wait = millis, lease = null)} into an empty handle slot, on a thread of the client. */
        TRY_ACQUIRE,
        /** {@code tryAcquire(wait = 0, lease = millis)} into an empty handle slot: a fixed lease, no watchdog. */
        TRY_ACQUIRE_LEASE,
        /** The handle's {@code release()}, from the handle's own thread (not the one that took it). */
        HOLD_RELEASE,
        /** The handle's {@code close()}, from the handle's own thread. */
        HOLD_CLOSE,
        /** The handle's {@code extend(millis)}, from the handle's own thread: longer, shorter, or refused at the call. */
        HOLD_EXTEND,
        /** The handle is dropped unreleased: its last reference goes, the collector runs, its cleaner must release it. */
        HOLD_DROP,
        /**
         * {@code extend(millis)} of the owner's hold: a longer, equal or shorter fixed lease from now
         * on, or (negative, zero, under 10 ms) a lease every stage refuses at the call.
         */
        EXTEND,
        /** {@code forceUnlock()} of the side, by an administrator (the owner's client is only the caller). */
        FORCE_UNLOCK,
        /** {@code lockInterruptibly()}, and an interrupt {@code millis} later. */
        INTERRUPT,
        /** {@code close()} of the client, and a new client (a new identity) in its slot. */
        CLOSE,
        /** The client dies: its link goes dark, it stops, a new client takes the slot. */
        CRASH,
        /** The client's link goes dark for {@code millis}: a paused holder, whose renewals cannot reach Redis. */
        STALL,
        /** Redis drops every client connection (normal and pub/sub). */
        DROP_CONNECTIONS,
        /** The owner writes to the fenced resource with its hold's token. */
        FENCED_WRITE,
        /** Time passes ({@code millis}): fixed leases run out, lost holds expire. */
        WAIT
    }

    /**
     * The lock a call uses: the write side (the only one of most locks), the read side of a
     * read-write lock, or, on a lock over several names, the group over the modelled name and
     * {@link ModelSetup#OTHER} ({@code getAll}), which one thread may hold beside the single name.
     */
    public enum Side { WRITE, READ, GROUP }

    /** A fault on the owner's link while the call runs. */
    public enum WireFault {
        /** No fault. */
        NONE,
        /** Redis runs the request, the reply is lost: the outcome is unknown to the caller. */
        LOST_REPLY,
        /** The link is dark for the first {@link ModelSetup#BLIP} of the call: a first attempt fails, a retry may not. */
        BLIP,
        /**
         * The client's watchdog decided to renew and is held up before sending (a GC pause, a busy
         * processor) while the call runs: it sends once the call is done, or waits for it.
         */
        RENEWAL_HELD
    }

    /** A call of owner A1 (client A, thread 1), as the replayed histories write most of their steps. */
    static Step ofA1(Kind kind, Side side, long millis, WireFault fault) {
        return new Step(kind, 0, 0, side, millis, fault);
    }

    /** The owner's name as timelines show it: client letter and thread number, e.g. {@code A1}. */
    public String owner() {
        return ownerName(client, thread);
    }

    /** The name of the owner in {@code client} slot, {@code thread} slot. */
    static String ownerName(int client, int thread) {
        return clientName(client) + (isHandle(thread) ? "h" + (thread - ModelSetup.THREADS + 1) : thread + 1);
    }

    /** Whether owner slot {@code thread} is a hold handle rather than a thread. */
    static boolean isHandle(int thread) {
        return thread >= ModelSetup.THREADS;
    }

    /** The thread slot that takes handle slot {@code handle}'s hold: never the handle's own thread. */
    static int acquiringThread(int handle) {
        return (handle - ModelSetup.THREADS) % ModelSetup.THREADS;
    }

    /** The name of the client in {@code client} slot: its letter. */
    static String clientName(int client) {
        return String.valueOf((char) ('A' + client));
    }

    @Override
    public String toString() {
        String sideNote = ReferenceModel.sideName(side);
        String faultNote = fault == WireFault.NONE ? "" : " [" + fault.name().toLowerCase().replace('_', ' ') + "]";
        String clientName = clientName(client);
        return switch (kind) {
            case LOCK -> owner() + sideNote + " lock()" + faultNote;
            case TRY_LOCK -> owner() + sideNote + " tryLock()" + faultNote;
            case TRY_LOCK_WAIT -> owner() + sideNote + " tryLock(wait " + millis + " ms)" + faultNote;
            case TRY_LOCK_LEASE -> owner() + sideNote + " tryLock(lease " + millis + " ms)" + faultNote;
            case LOCK_LEASE -> owner() + sideNote + " lock(lease " + millis + " ms)" + faultNote;
            case TRY_LOCK_UNIT -> owner() + sideNote + " tryLock(" + millis + ", MILLISECONDS)" + faultNote;
            case CONTEND -> owner() + sideNote + " tryLock(wait " + millis + " ms), in the background";
            case UNLOCK -> owner() + sideNote + " unlock()" + faultNote;
            case TRY_ACQUIRE -> owner() + sideNote + " = " + ownerName(client, acquiringThread(thread))
                    + " tryAcquire(wait " + millis + " ms)" + faultNote;
            case TRY_ACQUIRE_LEASE -> owner() + sideNote + " = " + ownerName(client, acquiringThread(thread))
                    + " tryAcquire(lease " + millis + " ms)" + faultNote;
            case HOLD_RELEASE -> owner() + " release()" + faultNote;
            case HOLD_CLOSE -> owner() + " close()" + faultNote;
            case HOLD_EXTEND -> owner() + " extend(" + millis + " ms)" + faultNote;
            case HOLD_DROP -> owner() + " dropped, collected";
            case EXTEND -> owner() + sideNote + " extend(" + millis + " ms)" + faultNote;
            case FORCE_UNLOCK -> owner() + sideNote + " forceUnlock()" + faultNote;
            case INTERRUPT -> owner() + sideNote + " lockInterruptibly(), interrupted after " + millis + " ms";
            case CLOSE -> clientName + " close(), reopened";
            case CRASH -> clientName + " crashes, restarted";
            case STALL -> clientName + " stalls " + millis + " ms";
            case DROP_CONNECTIONS -> "redis drops every connection";
            case FENCED_WRITE -> owner() + " writes with its token";
            case WAIT -> "wait " + millis + " ms";
        };
    }
}
