package dev.lockstep.bench;

import java.util.concurrent.atomic.LongAdder;

/**
 * One iteration of a {@link SeveralNames} benchmark: its acquisitions and the servers' work, counted
 * over the same window. JMH opens it before any thread starts the iteration and closes it after
 * every thread has finished.
 */
final class SeveralNamesWindow {

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
}
