package dev.lockstep.v7;

import dev.lockstep.FencedLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.v5.PubSubLocks;
import redis.clients.jedis.UnifiedJedis;

/**
 * Stage 7: stage 5's lock, whose grant also hands out a fencing token, so the resource the lock
 * protects can refuse the late write of a holder that paused past its lease. See
 * {@link TokenLock} for the lock and {@link dev.lockstep.v7.internal.TokenCounters} for where the tokens come from.
 */
public final class FencedLocks extends PubSubLocks {

    /** A client of the stage-7 lock over {@code redis}. */
    public FencedLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, claimsAnd(Guarantee.FENCED));
    }

    /**
     * The lock called {@code name}, with the tokens of its holds. The same name gives the same lock
     * object while a thread of this client holds it or the caller keeps a reference.
     *
     * @throws NullPointerException     when {@code name} is null
     * @throws IllegalArgumentException when {@code name} is blank, or has braces that are not a whole
     *                                  Redis Cluster hash tag
     * @throws IllegalStateException    when this client is closed
     */
    @Override
    public FencedLock get(String name) {
        return (FencedLock) super.get(name);
    }

    @Override
    protected FencedLock newLock(String name) {
        return new TokenLock(name, this, watchdog(), subscriber());
    }
}
