package dev.lockstep.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.slf4j.LoggerFactory;

/**
 * One Redis server and two client identities of the contender under test, A and B, like two
 * application instances sharing a lock. Over each iteration it counts the acquisitions, per thread,
 * and reads what the server did, for {@link RedisWork}.
 */
@State(Scope.Benchmark)
public class TwoClients {

    /** The contender under test; every one when not narrowed with {@code -p contender=...}. */
    @Param
    public Contender contender;

    /** Names are fresh per trial, so a run against a given server never meets an earlier run's locks. */
    private final String trial = UUID.randomUUID().toString().substring(0, 8);
    private final Map<Thread, LongAdder> acquisitionsByThread = new ConcurrentHashMap<>();
    private ServerWork workBefore;
    private Map<Thread, Long> acquisitionsBefore;
    private volatile ServerWork iterationWork = ServerWork.NONE;
    private volatile long iterationAcquisitions;
    private volatile long iterationBusiestThread;
    private long sleepsBefore;
    private volatile long iterationThreadSleeps;
    private RedisServers servers;
    private LockClient clientA;
    private LockClient clientB;

    @Setup(Level.Trial)
    public void start() {
        servers = RedisServers.use(1);
        LoggerFactory.getLogger(TwoClients.class).info("{} on {}", contender.label(), servers.description());
        clientA = contender.open(servers.address(0));
        clientB = contender.open(servers.address(0));
    }

    /**
     * JMH runs this before any thread starts the iteration and {@link #stopCounting} after every
     * thread has finished it, so the window holds the whole iteration, and its acquisitions and
     * the server's work are counted over the same window.
     */
    @Setup(Level.Iteration)
    public void startCounting() {
        workBefore = servers.work();
        acquisitionsBefore = countsByThread();
        sleepsBefore = ThreadSleeps.total();
    }

    @TearDown(Level.Iteration)
    public void stopCounting() {
        iterationThreadSleeps = ThreadSleeps.total() - sleepsBefore;
        iterationWork = servers.work().minus(workBefore);
        List<Long> byThread = countsByThread().entrySet().stream()
                .map(count -> count.getValue() - acquisitionsBefore.getOrDefault(count.getKey(), 0L))
                .toList();
        iterationAcquisitions = byThread.stream().mapToLong(Long::longValue).sum();
        iterationBusiestThread = byThread.stream().mapToLong(Long::longValue).max().orElse(0);
    }

    private Map<Thread, Long> countsByThread() {
        Map<Thread, Long> counts = new HashMap<>();
        acquisitionsByThread.forEach((thread, count) -> counts.put(thread, count.sum()));
        return counts;
    }

    /** Stops the clients first (their threads and connections), then the server: nothing outlives the trial. */
    @TearDown(Level.Trial)
    public void stop() {
        try (RedisServers closing = servers) {
            clientA.close();
            clientB.close();
        }
    }

    /**
     * The lock {@code name} as seen by client A ({@code client} 0) or B (1). A group benchmark's
     * methods are its subgroups in order, so {@code clientA} runs on subgroup 0.
     */
    Lock lock(int client, String name) {
        return (client == 0 ? clientA : clientB).lock(name + "-" + trial);
    }

    /** Counts one acquisition by the calling thread, for the Redis work per acquisition and the busiest thread's share. */
    void acquired() {
        acquisitionsByThread.computeIfAbsent(Thread.currentThread(), thread -> new LongAdder()).increment();
    }

    /** Acquisitions in the last iteration, by all threads. */
    long iterationAcquisitions() {
        return iterationAcquisitions;
    }

    /** Acquisitions in the last iteration by the thread that took the lock most often. */
    long iterationBusiestThread() {
        return iterationBusiestThread;
    }

    /** How many times this JVM's threads went to sleep in the last iteration. */
    long iterationThreadSleeps() {
        return iterationThreadSleeps;
    }

    /** What the server did in the last iteration. */
    ServerWork iterationWork() {
        return iterationWork;
    }
}
