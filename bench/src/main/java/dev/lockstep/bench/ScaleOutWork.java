package dev.lockstep.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * {@link RedisWork}'s counters for {@link ScaleOut}, and each master's share: totals that JMH sums
 * over the measured iterations, so dividing one by {@link #acquisitions()} gives it per
 * acquisition. Masters are numbered in slot order from 1; a one-master ground reports zeros for
 * masters 2 and 3. Thread 0 reports, the other threads report zeros, so JMH's sum over threads is right.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ScaleOutWork {

    private ScaleOutGround ground;
    private boolean reporting;

    /** Reads the ground's figures of the iteration that is starting; thread 0 reports them. */
    @Setup(Level.Iteration)
    public void begin(ScaleOutGround ground, ThreadParams thread) {
        this.ground = ground;
        reporting = thread.getThreadIndex() == 0;
    }

    /** Locks taken in the iteration (for the floor, PINGs answered). */
    public long acquisitions() {
        return reporting ? ground.iterationOperations() : 0;
    }

    /** EVAL and EVALSHA requests, on every master. */
    public long scriptCalls() {
        return reporting ? ground.iterationWork().scriptCalls() : 0;
    }

    /** Requests of any kind, on every master: round trips. */
    public long roundTrips() {
        return reporting ? ground.iterationWork().roundTrips() : 0;
    }

    /** Commands every master ran, inside scripts too. */
    public long commands() {
        return reporting ? ground.iterationWork().commands() : 0;
    }

    /** Processor time of every master, system and user, in µs. */
    public long cpuMicros() {
        return reporting ? ground.iterationWork().cpuMicros() : 0;
    }

    /** PUBLISH messages the masters received from each other over the Cluster bus: none on one master. */
    public long relayedPublishes() {
        return reporting ? ground.iterationWork().relayedPublishes() : 0;
    }

    /** Processor time of master 1, in µs. */
    public long cpuMaster1() {
        return cpu(0);
    }

    /** Processor time of master 2, in µs. */
    public long cpuMaster2() {
        return cpu(1);
    }

    /** Processor time of master 3, in µs. */
    public long cpuMaster3() {
        return cpu(2);
    }

    /** Commands master 1 ran: with {@link #commands()}, its share of the work. */
    public long commandsMaster1() {
        return commands(0);
    }

    /** Commands master 2 ran. */
    public long commandsMaster2() {
        return commands(1);
    }

    /** Commands master 3 ran. */
    public long commandsMaster3() {
        return commands(2);
    }

    private long cpu(int master) {
        return reporting ? ground.iterationWork(master).cpuMicros() : 0;
    }

    private long commands(int master) {
        return reporting ? ground.iterationWork(master).commands() : 0;
    }
}
