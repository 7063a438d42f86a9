package dev.lockstep.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The Redis server's work in each iteration, and how the acquisitions were shared, as secondary
 * results beside every figure: totals
 * that JMH sums over the measured iterations, so a chart divides them by {@link #acquisitions()}
 * for the work per acquisition. {@link TwoClients} counts them once per iteration for all threads;
 * thread 0 reports them and the other threads report zeros, so JMH's sum over threads is right.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class RedisWork {

    private TwoClients trial;
    private boolean reporting;

    @Setup(Level.Iteration)
    public void begin(TwoClients clients, ThreadParams thread) {
        trial = clients;
        reporting = thread.getThreadIndex() == 0;
    }

    /** Locks taken in the iteration. */
    public long acquisitions() {
        return reporting ? trial.iterationAcquisitions() : 0;
    }

    /**
     * Acquisitions in the iteration by the thread that took the lock most often: divided by
     * {@link #acquisitions()}, how much of the lock one thread kept to itself (1/threads when fair).
     */
    public long busiestThreadAcquisitions() {
        return reporting ? trial.iterationBusiestThread() : 0;
    }

    /**
     * Times this JVM's threads went to sleep in the iteration ({@link ThreadSleeps}): per
     * acquisition, the round trips its caller waited for, plus every helper thread the lock woke.
     */
    public long threadSleeps() {
        return reporting ? trial.iterationThreadSleeps() : 0;
    }

    /** EVAL and EVALSHA requests in the iteration. */
    public long scriptCalls() {
        return reporting ? trial.iterationWork().scriptCalls() : 0;
    }

    /** Requests of any kind in the iteration, scripts included: round trips. */
    public long roundTrips() {
        return reporting ? trial.iterationWork().roundTrips() : 0;
    }

    /** Commands the server ran in the iteration, inside scripts too: server work. */
    public long commands() {
        return reporting ? trial.iterationWork().commands() : 0;
    }
}
