package dev.lockstep.bench;

import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.v5.PubSubLocks;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import redis.clients.jedis.RedisClient;

/**
 * One client locks and releases a million distinct names (a lock per order id, say) and its heap,
 * after GC, must end within {@link #ALLOWED_GROWTH_MB} of where it started: lock objects nobody
 * holds or references are collected. Not a JMH benchmark: it measures memory, once.
 *
 * <pre>{@code java -cp bench/target/benchmarks.jar dev.lockstep.bench.ManyNames [names]}</pre>
 */
public final class ManyNames {

    private static final long ALLOWED_GROWTH_MB = 4;
    private static final int THREADS = 4;

    private ManyNames() {
    }

    /** Runs the check; exits 1 when the heap grew more than allowed. */
    public static void main(String[] args) throws Exception {
        int names = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        try (RedisServers servers = RedisServers.start(1);
             RedisClient redis = RedisClient.create(servers.addresses().get(0));
             PubSubLocks locks = new PubSubLocks(redis, LockOptions.defaults())) {
            lockAndRelease(locks, "warm-up-", 20_000);
            long before = heapAfterGc();
            long started = System.nanoTime();
            lockAndRelease(locks, "order-", names);
            double seconds = (System.nanoTime() - started) / 1e9;
            long after = heapAfterGc();
            double growthMb = (after - before) / 1048576.0;
            System.out.printf("ManyNames: %,d distinct names locked and released by one v5 client in %.0f s "
                            + "(%,.0f per second, %d threads)%n", names, seconds, names / seconds, THREADS);
            System.out.printf("ManyNames: heap after GC %.1f MB before, %.1f MB after: %+.1f MB "
                            + "(allowed %d MB); lock objects left: %,d%n", before / 1048576.0, after / 1048576.0,
                    growthMb, ALLOWED_GROWTH_MB, ((AbstractLocks) locks).lockObjects());
            System.exit(growthMb <= ALLOWED_GROWTH_MB ? 0 : 1);
        }
    }

    private static void lockAndRelease(PubSubLocks locks, String prefix, int names) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int first = t;
                work.add(threads.submit(() -> {
                    for (int i = first; i < names; i += THREADS) {
                        DistLock lock = locks.get(prefix + i);
                        lock.lock();
                        lock.unlock();
                    }
                }));
            }
            for (Future<?> done : work) {
                done.get();
            }
        } finally {
            threads.shutdown();
        }
    }

    /** Used heap once repeated collections stop freeing anything. */
    private static long heapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            Thread.sleep(100);
            long now = memory.getHeapMemoryUsage().getUsed();
            if (now >= used) {
                return now;
            }
            used = now;
        }
        return used;
    }
}
