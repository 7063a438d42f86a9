package dev.lockstep.v4.internal;

/**
 * An unlock, as each lock sends it: its script and what its reply means. {@link HoldTable#release}
 * runs it inside the one release protocol every lock from stage 4 on follows.
 */
public interface Unlock<R> {

    /** Sends the unlock for the calling thread, which had {@code holds} holds. */
    R run(int holds);

    /** Whether {@code reply} says Redis had no field of this owner: the thread held nothing there. */
    boolean refused(R reply);

    /** The calling thread holds nothing here: undo what a grant whose reply was lost may have left. Must not throw. */
    default void notHeld() {
    }
}
