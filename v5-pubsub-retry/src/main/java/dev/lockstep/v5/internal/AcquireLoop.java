package dev.lockstep.v5.internal;

import dev.lockstep.RedisRefusedException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Stage 5's way to wait for a lock, which stage 6 shares. Try once. A thread that already holds
 * the lock (a re-entry whose try failed) tries again by itself: among its client's waiters it
 * would queue behind threads that wait for the very hold it has, and both would wait forever.
 * Anyone else sleeps on the release channel between tries ({@link Subscriber#await}).
 *
 * @param lockName      the lock, for errors
 * @param subscriber    the client's waiter side
 * @param confirmWithin how long a subscription may take to be confirmed
 * @param holdsIt       whether the calling thread already holds the lock
 * @param retryPause    how many ns a holder's failed re-entry pauses before it tries again
 */
public record AcquireLoop(String lockName, Subscriber subscriber, Duration confirmWithin, BooleanSupplier holdsIt,
        LongSupplier retryPause) {

    /**
     * Tries with {@code attempt} until it takes the lock (true) or {@code waitNanos} pass (false; a
     * negative wait is forever), sleeping on {@code channel} between tries. The first try once
     * listening is {@code onceListening} given the first try's reply.
     */
    public boolean run(String channel, long waitNanos, Subscriber.Attempt attempt,
            LongFunction<Subscriber.Attempt> onceListening) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        try {
            Long reply = attempt.tryOnce();
            while (reply != null && holdsIt.getAsBoolean()) {
                long left = waitNanos < 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(left, retryPause.getAsLong()));
                reply = attempt.tryOnce();
            }
            if (reply == null) {
                return true;
            }
            long waitLeft = waitNanos < 0 ? waitNanos : Math.max(0, deadline - System.nanoTime());
            return waitLeft != 0 && subscriber.await(channel, waitLeft, confirmWithin, attempt, onceListening.apply(reply));
        } catch (JedisDataException subscriptionRefused) {
            throw new RedisRefusedException(lockName, "wait", subscriptionRefused);
        }
    }
}
