package dev.lockstep;

/**
 * An unlock by a thread whose lease was lost: its explicit lease ran out, or no renewal reached
 * Redis in time, so another client may have held the lock since. Unlike a plain
 * {@link IllegalMonitorStateException} ("this thread does not hold the lock"), the thread did hold
 * it, and {@link #loss()} says when and why it stopped. The hold is forgotten; nothing was sent.
 */
public class LeaseLostException extends IllegalMonitorStateException {

    private final transient LeaseLoss loss;

    /** The calling thread's hold, lost as {@code loss} tells. */
    public LeaseLostException(LeaseLoss loss) {
        super("lock '" + loss.lockName() + "': this thread's lease was lost at " + loss.lostAt() + " ("
                + loss.reason() + "), so another client may hold it now");
        this.loss = loss;
    }

    /** When and why the lease was lost. */
    public LeaseLoss loss() {
        return loss;
    }
}
