package dev.lockstep.testkit.scenario;

/**
 * A scenario could not set its story up in time on this machine: a step before the story's fault
 * that only time can break (a free lock not taken within its wait, a replica's acknowledgement
 * later than its wait allows on a loaded machine). It says nothing about the lock under test, so
 * the play is replayed on fresh servers ({@link Outcome#run}), and one that never sets up is
 * reported as not played, never as a failure of the lock.
 */
public final class TooSlowToPlay extends RuntimeException {

    /** The set-up step that did not happen in time, as the story names it. */
    public TooSlowToPlay(String step) {
        super(step);
    }
}
