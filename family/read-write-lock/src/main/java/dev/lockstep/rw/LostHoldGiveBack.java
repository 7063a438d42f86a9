package dev.lockstep.rw;

import dev.lockstep.LockOptions;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Gives back at once, in Redis, a hold of either side that its owner lost: the hash is kept alive
 * by other holds (the owner's write, other readers), and would keep the lost hold's field, and a
 * writer out, past that hold's own lease. A give-back that fails (a dead pooled connection, Redis
 * out of reach) is tried again every spin interval: while others renew, Redis answers them, and the
 * field must go too. After a watchdog timeout of failures every other lease has ended as well, and
 * the hash with it. No call of the owner's runs meanwhile: its next one waits for the give-back.
 */
final class LostHoldGiveBack {

    private LostHoldGiveBack() {
    }

    /** The undo of an owner's lost hold: {@code unlock} of its field, retried as above while {@code closed} says no. */
    static Consumer<String> retrying(Consumer<String> unlock, LockOptions options, BooleanSupplier closed) {
        return owner -> {
            long giveUpAt = System.nanoTime() + options.watchdogTimeout().toNanos();
            while (true) {
                try {
                    unlock.accept(owner);
                    return;
                } catch (RuntimeException unreachable) {
                    if (closed.getAsBoolean() || System.nanoTime() - giveUpAt > 0) {
                        return;
                    }
                }
                try {
                    TimeUnit.NANOSECONDS.sleep(options.spinInterval().toNanos());
                } catch (InterruptedException closing) {
                    // The client closes: its give-back thread stops, and the hash's lease ends the field.
                    return;
                }
            }
        };
    }
}
