package dev.lockstep.starter;

import dev.lockstep.testkit.client.CriticalSection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A service with {@link Locked} methods, all on the lock {@code shelf:<sku>}; it counts calls that overlap. */
class Shelf {

    private final Counts counts;

    Shelf(Counts counts) {
        this.counts = counts;
    }

    /** One pass through the shared critical section. */
    @Locked(name = "shelf", key = "#sku", waitFor = "30s")
    public void sell(String sku) {
        counts.section.pass();
    }

    /** Counts down {@code inside}, then stays until {@code leave} (at most 20 s). */
    @Locked(name = "shelf", key = "#sku")
    public void hold(String sku, CountDownLatch inside, CountDownLatch leave) {
        inside.countDown();
        try {
            leave.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Throws inside the lock. */
    @Locked(name = "shelf", key = "#sku")
    public void fail(String sku) {
        throw new IllegalStateException("refused " + sku);
    }

    /** One attempt at the lock, no wait. */
    @Locked(name = "shelf", key = "#sku", waitFor = "0s")
    public String takeAtOnce(String sku) {
        return "took " + sku;
    }

    /** Waits {@code shelf.patience}, then gives up with {@link SoldOut}. */
    @Locked(name = "shelf", key = "#sku", waitFor = "${shelf.patience}", onTimeout = SoldOut.class)
    public void impatient(String sku) {
        counts.impatientRan.incrementAndGet();
    }

    /** A service whose lock wait is no duration: it must not start. */
    static class Impatient {

        /** Never called: the context refuses the attribute first. */
        @Locked(name = "shelf", waitFor = "soon")
        public void badWait() {
        }
    }

    /** A service whose lease is one every lock refuses: it must not start either. */
    static class Hasty {

        /** Never called: the context refuses the attribute first. */
        @Locked(name = "shelf", lease = "5ms")
        public void badLease() {
        }
    }

    /** The shelf's own timeout exception. */
    public static class SoldOut extends RuntimeException {

        /** A timeout with the starter's message. */
        public SoldOut(String message) {
            super(message);
        }
    }

    /** What the calls saw, shared by the shelves of both services. */
    static final class Counts {
        final CriticalSection section = new CriticalSection();
        final AtomicInteger impatientRan = new AtomicInteger();
    }
}
