package dev.lockstep.rw;

import dev.lockstep.DistLock;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.LuaScript;
import dev.lockstep.v4.internal.GiveBacks;
import dev.lockstep.v4.internal.HeldState;
import dev.lockstep.v4.internal.Watchdog;
import dev.lockstep.v5.internal.PubSubLock;
import dev.lockstep.v5.internal.Subscriber;
import java.util.List;
import java.util.function.Consumer;

/**
 * The write side: stage 5's lock whose scripts take the hash only when nobody holds it, in
 * {@code write} mode with the field {@code owner:write}. Its last unlock deletes the hash, or
 * leaves it in {@code read} mode when the writer still holds reads (a downgrade), and wakes every
 * waiter. An upgrade (a reader asking for the write lock) is refused at the call.
 */
final class WriteLock extends PubSubLock implements ReadWriteDistLock {

    private static final LuaScript LOCK = LuaScript.load(ReadWriteLocks.class, "write-lock.lua");
    private static final LuaScript UNLOCK = LuaScript.load(ReadWriteLocks.class, "write-unlock.lua");

    private final ReadLock readLock;

    WriteLock(String name, AbstractLocks client, Watchdog watchdog, Subscriber subscriber) {
        super(name, client, watchdog, subscriber, RwKeys.channel(name));
        this.readLock = new ReadLock(name, client, watchdog, subscriber, this);
    }

    @Override
    public DistLock readLock() {
        return readLock;
    }

    @Override
    public DistLock writeLock() {
        return this;
    }

    @Override
    protected void checkMayAcquire() {
        if (readLock.isHeldByCurrentThread() && !isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("lock '" + name() + "': this thread holds the read lock, and its "
                    + "write lock would wait for that read forever; unlock the read lock first (no upgrade)");
        }
    }

    @Override
    protected LuaScript lockScript() {
        return LOCK;
    }

    @Override
    protected Object unlockScript(String owner, int holds) {
        return UNLOCK.run(redis(), List.of(key(), channel()),
                List.of(owner, RwKeys.WRITE_RELEASED, Integer.toString(holds)));
    }

    /** Whether a writer holds the lock: the hash is in write mode. */
    @Override
    public boolean isLocked() {
        return readLock.isInMode("write");
    }

    /** Deletes the lock only while a writer holds it, and wakes every waiter; readers are left alone. */
    @Override
    public boolean forceUnlock() {
        return readLock.forceUnlockIn("write");
    }

    /** What thread (or hold) {@code threadId} holds of the write side. */
    HeldState holdOf(long threadId) {
        return heldBy(threadId);
    }

    /** A lost write hold is given back at once: the owner's reads renew the hash, and would keep its write field. */
    @Override
    protected Consumer<String> lostHoldUndo() {
        return GiveBacks.retrying(owner -> unlockScript(owner, 1), options(), this::isClosed);
    }

    /** The read side's renewal, checking this owner's write: a writer that downgraded renews its reads too. */
    @Override
    protected boolean renew(String owner, long leaseMillis) {
        return readLock.renewHold(owner, owner + ":write", leaseMillis);
    }
}
