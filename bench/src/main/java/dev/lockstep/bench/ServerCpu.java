package dev.lockstep.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the rounds of one iteration cost the servers, as secondary results that a table divides
 * one by the other: the rounds, the requests the servers read, and their processor time
 * ({@code INFO}'s {@code used_cpu_sys} + {@code used_cpu_user}), summed over every server.
 * Where servers outnumber the cores, that time is what a round over all of them waits for.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ServerCpu {

    private RedisServers servers;
    private ServerWork atStart;
    private long rounds;
    private ServerWork done = ServerWork.NONE;

    @Setup(Level.Iteration)
    public void reset() {
        servers = null;
        rounds = 0;
    }

    /** Reads the servers' work now: JMH takes the counters after the last iteration's servers are gone. */
    @TearDown(Level.Iteration)
    public void end() {
        done = servers == null ? ServerWork.NONE : servers.work().minus(atStart);
    }

    /** Counts a round on {@code measured}; the iteration's first also reads where their processor time starts. */
    void round(RedisServers measured) {
        if (servers == null) {
            servers = measured;
            atStart = measured.work();
        }
        rounds++;
    }

    /** Rounds in the iteration (for a lock, acquisitions): what the other counters are divided by. */
    public long acquisitions() {
        return rounds;
    }

    /** Requests the servers read in the iteration, scripts and plain commands alike. */
    public long serverRequests() {
        return done.roundTrips();
    }

    /** The servers' processor time in the iteration, in µs. */
    public long serverCpuMicros() {
        return done.cpuMicros();
    }
}
