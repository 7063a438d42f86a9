package dev.lockstep.rw;

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
 * The read side: stage 5's lock whose scripts share the hash in {@code read} mode, one field per
 * reading owner (its count) and a timeout key per read hold, so that the hash outlives no read
 * hold and no read hold outlives the hash. The writer of the same lock may take it too.
 */
final class ReadLock extends PubSubLock {

    private static final LuaScript LOCK = LuaScript.load(ReadWriteLocks.class, "read-lock.lua");
    private static final LuaScript UNLOCK = LuaScript.load(ReadWriteLocks.class, "read-unlock.lua");
    private static final LuaScript RENEW = LuaScript.load(ReadWriteLocks.class, "renew.lua");
    private static final LuaScript FORCE_UNLOCK = LuaScript.load(ReadWriteLocks.class, "force-unlock.lua");

    /** Its write side: kept alive by a held read lock (it is the object the client hands out), and asked for its lease. */
    private final WriteLock writeLock;
    private final String timeoutBase;

    ReadLock(String name, AbstractLocks client, Watchdog watchdog, Subscriber subscriber, WriteLock writeLock) {
        super(name, client, watchdog, subscriber, RwKeys.channel(name));
        this.writeLock = writeLock;
        this.timeoutBase = RwKeys.timeoutBase(name);
    }

    @Override
    protected LuaScript lockScript() {
        return LOCK;
    }

    /** The hash and the calling thread's timeout-key prefix. */
    @Override
    protected List<String> lockKeys() {
        return List.of(key(), RwKeys.timeoutPrefix(timeoutBase, threadOwner()));
    }

    @Override
    protected Object unlockScript(String owner, int holds) {
        return UNLOCK.run(redis(), List.of(key(), channel(), RwKeys.timeoutPrefix(timeoutBase, owner), timeoutBase),
                List.of(owner, RwKeys.READ_RELEASED, Integer.toString(holds), Long.toString(writeLeaseLeft(owner))));
    }

    /**
     * How long, in whole ms and at least 1, the hash must live for {@code owner}'s write hold, if it has one:
     * rounded down, since Redis counts it from a moment later than now.
     */
    private long writeLeaseLeft(String owner) {
        HeldState write = writeLock.holdOf(threadOf(owner));
        long left = write.depth() > 0 ? write.leaseEndNanos() - System.nanoTime() : 0;
        return Math.max(1, left / 1_000_000);
    }

    /** Whether readers hold the lock: the hash is in read mode. */
    @Override
    public boolean isLocked() {
        return isInMode("read");
    }

    /** Deletes the lock only while readers hold it (a live writer is left alone), and wakes every waiter. */
    @Override
    public boolean forceUnlock() {
        return forceUnlockIn("read");
    }

    /** Whether the hash is in {@code mode}: {@code read} or {@code write}. */
    boolean isInMode(String mode) {
        return ask("isLocked", () -> mode.equals(redis().hget(key(), "mode")));
    }

    /** Deletes the lock, with its read holds' timeout keys, only when it is in {@code mode}; true when deleted. */
    boolean forceUnlockIn(String mode) {
        return ask("forceUnlock", () -> Long.valueOf(1).equals(FORCE_UNLOCK.run(redis(),
                List.of(key(), channel(), timeoutBase), List.of(mode, RwKeys.WRITE_RELEASED))));
    }

    @Override
    protected boolean renew(String owner, long leaseMillis) {
        return renewHold(owner, owner, leaseMillis);
    }

    /**
     * A lost read hold is given back at once, all its reads: the owner's write or other readers keep
     * the hash alive, and with it the read field, which keeps writers out past the read's own lease.
     */
    @Override
    protected Consumer<String> lostHoldUndo() {
        return GiveBacks.retrying(owner -> unlockScript(owner, 1), options(), this::isClosed);
    }

    /**
     * Renews {@code owner}'s hold that {@code field} marks (its read count, or its write, for the
     * write side): the hash, and the timeout keys of the owner's read holds; readers whose holds all ran
     * out leave the hash.
     */
    boolean renewHold(String owner, String field, long leaseMillis) {
        return Long.valueOf(1).equals(RENEW.run(redis(), List.of(key(), RwKeys.timeoutPrefix(timeoutBase, owner), timeoutBase),
                List.of(Long.toString(leaseMillis), owner, field)));
    }
}
