package dev.lockstep.v7;

import dev.lockstep.FencedLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.Caller;
import dev.lockstep.internal.LuaScript;
import dev.lockstep.v4.internal.Watchdog;
import dev.lockstep.v5.internal.PubSubLock;
import dev.lockstep.v5.internal.Subscriber;
import dev.lockstep.v7.internal.TokenCounters;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stage-7 lock: stage 5's, with a lock script that also increments the token counter of the
 * lock's slot when it grants a new hold, in the same atomic step and round trip. The token is kept
 * for the holding thread until its last unlock; {@link #token()} hands it out only while the
 * hold lasts. A re-entry is the same hold and keeps the token.
 */
final class TokenLock extends PubSubLock implements FencedLock {

    private static final LuaScript LOCK = LuaScript.load(FencedLocks.class, "lock-and-fence.lua");

    private final String counter;
    /** Each caller's token (a thread's, or a hold's that belongs to no thread), while it holds the lock. */
    private final Map<Long, Long> tokens = new ConcurrentHashMap<>();

    TokenLock(String name, AbstractLocks client, Watchdog watchdog, Subscriber subscriber) {
        super(name, client, watchdog, subscriber);
        this.counter = TokenCounters.keyFor(name);
    }

    @Override
    protected LuaScript lockScript() {
        return LOCK;
    }

    /** The lock's hash and its slot's token counter: one slot, so one script runs on both, on Cluster too. */
    @Override
    protected List<String> lockKeys() {
        return List.of(key(), counter);
    }

    /** A new hold's reply is {@code {token}}; a re-entry's is nil and keeps the token it has. */
    @Override
    protected void granted(Object reply) {
        if (reply instanceof List<?> fresh) {
            tokens.put(Caller.currentId(), (Long) fresh.get(0));
        }
    }

    @Override
    public long token() {
        Long current = tokens.get(Caller.currentId());
        if (current == null || !isHeldByCurrentThread()) {
            // A lease lost and never unlocked: the token is over either way.
            tokens.remove(Caller.currentId());
            throw new IllegalMonitorStateException("lock '" + name() + "' is not held by this thread, so it has no token");
        }
        return current;
    }

    /** The caller's last unlock: its token goes with its hold, not with the (perhaps pooled) thread. */
    @Override
    protected void lastHoldEnded() {
        tokens.remove(Caller.currentId());
    }

    /** Whether the calling thread keeps a token, for tests: only while it holds the lock. */
    boolean keepsToken() {
        return tokens.containsKey(Caller.currentId());
    }
}
