package dev.lockstep.bench;

import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * One iteration of a {@link SeveralNames} benchmark: its acquisitions and the servers' work, counted
 * over the same window, and the aux counters that report them. JMH opens the window before any
 * thread starts the iteration and closes it after every thread has finished.
 */
public final class SeveralNamesWork {

    private final LongAdder acquired = new LongAdder();
    private ServerWork before = ServerWork.NONE;
    private long acquiredBefore;
    private volatile ServerWork work = ServerWork.NONE;
    private volatile long acquisitions;

    void open(RedisServers servers) {
        before = servers.work();
        acquiredBefore = acquired.sum();
    }

    void close(RedisServers servers) {
        work = servers.work().minus(before);
        acquisitions = acquired.sum() - acquiredBefore;
    }

    /** Counts one acquisition. */
    void acquired() {
        acquired.increment();
    }

    /** Acquisitions in the last iteration. */
    long acquisitions() {
        return acquisitions;
    }

    /** What the servers did in the last iteration. */
    ServerWork work() {
        return work;
    }

    /** What the servers did per iteration of {@link SeveralNames#lockUnlock}, reported by its one thread. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Alone {

        private SeveralNamesWork window;

        @Setup(Level.Iteration)
        public void begin(SeveralNames.Whole whole) {
            window = whole.window;
        }

        /** Locks taken in the iteration. */
        public long acquisitions() {
            return window.acquisitions();
        }

        /** Requests of any kind in the iteration: round trips. */
        public long roundTrips() {
            return window.work().roundTrips();
        }

        /** Commands the server ran in the iteration, inside scripts too. */
        public long commands() {
            return window.work().commands();
        }
    }

    /** What the servers did per iteration of {@link SeveralNames#contended}: thread 0 reports, the others report zeros. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Crowded {

        private SeveralNamesWork window;
        private boolean reporting;

        @Setup(Level.Iteration)
        public void begin(SeveralNames.Crowd crowd, ThreadParams thread) {
            window = crowd.window;
            reporting = thread.getThreadIndex() == 0;
        }

        /** Locks taken in the iteration, by all threads. */
        public long acquisitions() {
            return reporting ? window.acquisitions() : 0;
        }

        /** Requests of any kind in the iteration: round trips. */
        public long roundTrips() {
            return reporting ? window.work().roundTrips() : 0;
        }

        /** Commands the server ran in the iteration, inside scripts too. */
        public long commands() {
            return reporting ? window.work().commands() : 0;
        }
    }
}
