package dev.lockstep.testkit.model;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Notices when the machine itself stalled: a thread that sleeps {@link #TICK_MILLIS} at a time and
 * records how much longer than asked a sleep took. On a loaded machine a stall of a few hundred ms
 * starves the clients' renewal threads as a paused holder's would be, so a hold may be lost
 * unannounced; after such a stall the model treats every client as shaken for one lease (a loss
 * still has to be told, and no two owners may hold), and the log says why.
 */
final class MachineStalls implements AutoCloseable {

    private static final long TICK_MILLIS = 10;

    private final AtomicLong worstMillis = new AtomicLong();
    private final Thread ticker;

    /** Starts noticing. */
    MachineStalls() {
        ticker = new Thread(this::tick, "model-machine-stalls");
        ticker.setDaemon(true);
        ticker.start();
    }

    private void tick() {
        while (!Thread.currentThread().isInterrupted()) {
            long start = System.nanoTime();
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long late = (System.nanoTime() - start) / 1_000_000 - TICK_MILLIS;
            worstMillis.accumulateAndGet(late, Math::max);
        }
    }

    /** The longest stall (ms) since the last call, and starts counting anew. */
    long worstSinceLastAsked() {
        return worstMillis.getAndSet(0);
    }

    @Override
    public void close() {
        ticker.interrupt();
    }
}
