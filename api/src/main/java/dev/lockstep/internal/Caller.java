package dev.lockstep.internal;

import java.util.function.BooleanSupplier;

/**
 * Who a lock call is for: the calling thread, or a {@link dev.lockstep.LockHold} that a thread acts
 * for during one call. Every lock names its owners, counts holds and renews leases by
 * {@link #id()}, so a hold that belongs to no thread is one more owner to them.
 *
 * @param id    the owner's number: a thread's id, or a negative number for a hold
 * @param name  how logs name it
 * @param alive whether it may still use what it holds: a thread that ended, or a hold that was let go, may not
 */
public record Caller(long id, String name, BooleanSupplier alive) {

    private static final ThreadLocal<Caller> ACTING_FOR = new ThreadLocal<>();

    /** Who the calling thread acts for now: a hold during {@link #actingFor}, else itself. */
    public static Caller current() {
        Caller acting = ACTING_FOR.get();
        if (acting != null) {
            return acting;
        }
        Thread thread = Thread.currentThread();
        return new Caller(thread.getId(), thread.getName(), thread::isAlive);
    }

    /** The {@link #id()} of {@link #current()}, without building it. */
    public static long currentId() {
        Caller acting = ACTING_FOR.get();
        return acting != null ? acting.id : Thread.currentThread().getId();
    }

    /** Whether the owner may still use what it holds. */
    public boolean isAlive() {
        return alive.getAsBoolean();
    }

    /** Runs {@code call} on the calling thread on behalf of {@code caller}. */
    public static <T, E extends Exception> T actingFor(Caller caller, Call<T, E> call) throws E {
        Caller before = ACTING_FOR.get();
        ACTING_FOR.set(caller);
        try {
            return call.run();
        } finally {
            if (before == null) {
                ACTING_FOR.remove();
            } else {
                ACTING_FOR.set(before);
            }
        }
    }

    /** A call that may throw {@code E}, such as an {@link InterruptedException}. */
    @FunctionalInterface
    public interface Call<T, E extends Exception> {

        /** Runs the call. */
        T run() throws E;
    }
}
