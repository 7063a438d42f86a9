package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisClusterFixture;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.interop.RedissonClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * A mixed run: eight threads over two Redisson clients and two {@link MultiNameLocks} take, again
 * and again, 2 or 3 of five names listed in random order, through Redisson's
 * {@code RedissonMultiLock}, {@link MultiNameLocks#getAll}, a {@link MultiNameLock} whose parts
 * come from both of our clients, and single-name locks of both kinds (one name each). On a server,
 * on a 3-master Cluster with names of one hash tag, and on one with names spread over its masters.
 *
 * <p>No name is ever held by two at once; no thread waits longer than {@link #STUCK} (the failure
 * shows who holds and wants what); no lock key is seen without a TTL while it runs; none is left
 * after. {@code -Dlockstep.interop.seconds} sets how long each run lasts: 2 s by default, to keep
 * the suite quick; the acceptance run is 60, with {@code -Dlockstep.testTimeout} raised to cover a
 * run, its last waits and the Cluster's start. The three runs go side by side: each has its own
 * servers, and they mostly wait.
 */
@Execution(ExecutionMode.CONCURRENT)
class MixedInteropRunTest {

    private static final Logger log = LoggerFactory.getLogger(MixedInteropRunTest.class);
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("lockstep.interop.seconds", 2));
    /**
     * A deadlock waits forever; honest waits here are long but end. Redisson's MultiLock, holding
     * names, waits up to 1.5 s per name for the next, then gives back and tries again at once, so it
     * can lose many such rounds in a row: the longest wait seen in 60 s runs was 68.5 s, one of
     * Redisson's. With the suite's 5 s runs this still fails inside its 2-minute test timeout.
     */
    private static final Duration STUCK = Duration.ofSeconds(100);
    /** One per worker: two of each composite kind, one of each single-name kind. */
    private static final int THREADS = 8;
    private static final List<String> PLAIN = List.of("stock", "order", "payment", "invoice", "shipping");

    /** Once every run is over: the runs go side by side, so one run's end is not the others'. */
    @AfterAll
    static void redissonThreadsEnd() {
        RedissonClients.awaitAllShutDown();
    }

    @Test
    void onAServer() throws Exception {
        try (RedisFixture fixture = RedisFixture.processes()) {
            RedisNode node = fixture.start();
            run("server", PLAIN, List.of(node), node::newClient, () -> RedissonClients.single(node.address()));
        }
    }

    @Test
    void onAClusterWithNamesOfOneSlot() throws Exception {
        List<String> tagged = PLAIN.stream().map(name -> "{shop}" + name).toList();
        try (RedisClusterFixture cluster = RedisClusterFixture.start(3)) {
            run("cluster, one slot", tagged, cluster.masters(), cluster::newClient,
                    () -> RedissonClients.cluster(cluster.addresses()));
        }
    }

    @Test
    void onAClusterWithNamesAcrossSlots() throws Exception {
        try (RedisClusterFixture cluster = RedisClusterFixture.start(3)) {
            assertEquals(3, PLAIN.stream().map(cluster::masterOfKey).distinct().count(),
                    "the untagged names land on every master");
            run("cluster, across slots", PLAIN, cluster.masters(), cluster::newClient,
                    () -> RedissonClients.cluster(cluster.addresses()));
        }
    }

    private static void run(String where, List<String> names, List<RedisNode> nodes, Supplier<UnifiedJedis> jedis,
                            Supplier<RedissonClient> redissonClient) throws Exception {
        try (Closer closer = new Closer()) {
            List<LockThread> threads = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                // Closed last: a thread stuck in a call ends once the clients below are closed.
                threads.add(closer.add(new LockThread("mixed-" + i)));
            }
            UnifiedJedis redis = closer.add(jedis.get());
            List<RedissonClient> redisson = new ArrayList<>();
            List<MultiNameLocks> ours = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                RedissonClient client = redissonClient.get();
                closer.add(client::shutdown);
                redisson.add(client);
                ours.add(closer.add(new MultiNameLocks(closer.add(jedis.get()), LockOptions.defaults())));
            }
            List<Worker> workers = List.of(
                    new Worker("RedissonMultiLock#0", 2, ids(redisson.get(0)),
                            picked -> redissonMultiLock(redisson.get(0), picked)),
                    new Worker("RedissonMultiLock#1", 2, ids(redisson.get(1)),
                            picked -> redissonMultiLock(redisson.get(1), picked)),
                    new Worker("getAll#0", 2, ids(ours.get(0)),
                            picked -> ours.get(0).getAll(picked.toArray(String[]::new))),
                    new Worker("getAll#1", 2, ids(ours.get(1)),
                            picked -> ours.get(1).getAll(picked.toArray(String[]::new))),
                    new Worker("MultiNameLock over #0,#1", 2, ids(ours.get(0), ours.get(1)),
                            picked -> acrossClients(ours, 0, picked)),
                    new Worker("MultiNameLock over #1,#0", 2, ids(ours.get(1), ours.get(0)),
                            picked -> acrossClients(ours, 1, picked)),
                    new Worker("stage-5 single#0", 1, ids(ours.get(0)), picked -> ours.get(0).get(picked.get(0))),
                    new Worker("RLock single#1", 1, ids(redisson.get(1)), picked -> redisson.get(1).getLock(picked.get(0))));
            new Run(where, names, nodes.size(), redis, workers, threads).play();
        }
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                assertEquals(Set.of(), admin.keys("*"), "keys left on " + node.label() + " after the " + where + " run");
            }
        }
    }

    private static List<String> ids(RedissonClient client) {
        return List.of(client.getId());
    }

    private static List<String> ids(MultiNameLocks... clients) {
        return List.of(clients).stream().map(MultiNameLocks::clientId).toList();
    }

    private static Lock redissonMultiLock(RedissonClient client, List<String> names) {
        return new RedissonMultiLock(names.stream().map(client::getLock).toArray(RLock[]::new));
    }

    /** A lock whose parts, in the listed order of the names, alternate between the clients, from {@code first} on. */
    private static Lock acrossClients(List<MultiNameLocks> clients, int first, List<String> names) {
        List<DistLock> parts = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            parts.add(clients.get((first + i) % clients.size()).get(names.get(i)));
        }
        return new MultiNameLock(parts);
    }

    /**
     * One thread's kind of lock: {@code size} is 2 for the composites, which take 2 or 3 names, and
     * 1 for the single-name locks. {@code clientIds} name its owner fields in Redis, for the dump.
     */
    private record Worker(String label, int size, List<String> clientIds, Function<List<String>, Lock> lockOf) {
    }

    /** One run of the workers over {@code names}, watched from the test's thread. */
    private static final class Run {

        private final String where;
        private final List<String> names;
        private final int servers;
        private final UnifiedJedis redis;
        private final List<Worker> workers;
        private final List<LockThread> threads;
        private final Map<String, String> occupant = new ConcurrentHashMap<>();
        private final List<String> overlaps = new CopyOnWriteArrayList<>();
        /** Per name, how many samples found its key without a TTL. */
        private final Map<String, Long> withoutTtl = new LinkedHashMap<>();
        private final List<Progress> progress = new ArrayList<>();
        private long ttlSamples;

        Run(String where, List<String> names, int servers, UnifiedJedis redis, List<Worker> workers,
            List<LockThread> threads) {
            this.where = where;
            this.names = names;
            this.servers = servers;
            this.redis = redis;
            this.workers = workers;
            this.threads = threads;
        }

        void play() throws Exception {
            long end = System.nanoTime() + RUN.toNanos();
            List<Future<Object>> runs = new ArrayList<>();
            for (int i = 0; i < workers.size(); i++) {
                Progress p = new Progress(workers.get(i), threads.get(i).thread());
                progress.add(p);
                runs.add(threads.get(i).submit(() -> rounds(p, end)));
            }
            Await.until("every thread of the " + where + " run ends its last round", RUN.plus(STUCK).plus(STUCK),
                    () -> {
                        failIfStuck();
                        sampleTtls();
                        return runs.stream().allMatch(Future::isDone);
                    });
            for (Future<Object> run : runs) {
                LockThread.get(run, LockThread.DEADLINE);
            }
            report();
            assertEquals(List.of(), overlaps, "names held by two at once on the " + where);
            assertEquals(Map.of(), withoutTtl, "lock keys seen without a TTL, of " + ttlSamples + " samples, on the " + where);
            for (Progress p : progress) {
                assertTrue(p.rounds > 0, p.worker.label() + " never got its names on the " + where);
            }
        }

        /** Until {@code end}: picks names, takes them, checks nobody else is inside them, gives them back. */
        private Object rounds(Progress p, long end) throws InterruptedException {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            String who = p.worker.label();
            while (System.nanoTime() < end) {
                List<String> picked = new ArrayList<>(names);
                Collections.shuffle(picked, random);
                picked = List.copyOf(picked.subList(0, p.worker.size() == 1 ? 1 : random.nextInt(2, 4)));
                Lock lock = p.worker.lockOf().apply(picked);
                p.waiting(picked);
                lock.lock();
                p.inside();
                try {
                    for (String name : picked) {
                        String other = occupant.putIfAbsent(name, who);
                        if (other != null) {
                            overlaps.add(who + " entered " + name + " while " + other + " was in it");
                        }
                    }
                    // A short section, so that others queue behind it.
                    Thread.sleep(1);
                    for (String name : picked) {
                        occupant.remove(name, who);
                    }
                } finally {
                    lock.unlock();
                    p.out();
                }
            }
            return null;
        }

        private void failIfStuck() {
            long now = System.nanoTime();
            for (Progress p : progress) {
                long since = p.waitingSince;
                if (since != 0 && now - since > STUCK.toNanos()) {
                    fail(p.worker.label() + " waited longer than " + STUCK + " for " + p.wants + " on the " + where
                            + "\n" + dump());
                }
            }
        }

        private void sampleTtls() {
            for (String name : names) {
                ttlSamples++;
                if (redis.pttl(name) == -1) {
                    withoutTtl.merge(name, 1L, Long::sum);
                }
            }
        }

        /** Each thread's state and stack, and each name's owners and TTL in Redis, owners named by thread. */
        private String dump() {
            Map<String, String> ownerLabels = new HashMap<>();
            StringBuilder out = new StringBuilder("threads:\n");
            for (Progress p : progress) {
                for (String clientId : p.worker.clientIds()) {
                    ownerLabels.put(clientId + ":" + p.thread.getId(), p.worker.label());
                }
                out.append("  ").append(p.worker.label()).append(": ").append(p.rounds).append(" rounds, ")
                        .append(p.waitingSince == 0 ? "inside or between rounds" : "waiting for " + p.wants)
                        .append(" (").append(p.thread.getState()).append(")\n");
                for (StackTraceElement frame : p.thread.getStackTrace()) {
                    out.append("      at ").append(frame).append('\n');
                }
            }
            out.append("names in Redis:\n");
            for (String name : names) {
                Map<String, String> owners = redis.hgetAll(name).entrySet().stream().collect(Collectors.toMap(
                        e -> ownerLabels.getOrDefault(e.getKey(), e.getKey()), Map.Entry::getValue, (a, b) -> a + "," + b,
                        LinkedHashMap::new));
                out.append("  ").append(name).append(": held by ").append(owners)
                        .append(", pttl ").append(redis.pttl(name)).append(" ms\n");
            }
            return out.toString();
        }

        private void report() {
            Map<String, String> byKind = new LinkedHashMap<>();
            for (Progress p : progress) {
                byKind.put(p.worker.label(), p.rounds + " rounds, longest wait "
                        + Duration.ofNanos(p.longestWait).toMillis() + " ms");
            }
            log.info("{} s on the {} ({} servers), {} TTL samples: {}", RUN.toSeconds(), where, servers,
                    ttlSamples, byKind);
        }
    }

    /** What one thread is doing, written by it and read by the watching thread. */
    private static final class Progress {

        final Worker worker;
        final Thread thread;
        volatile List<String> wants = List.of();
        /** When the current wait began; 0 when not waiting. */
        volatile long waitingSince;
        volatile long rounds;
        volatile long longestWait;

        Progress(Worker worker, Thread thread) {
            this.worker = worker;
            this.thread = thread;
        }

        void waiting(List<String> names) {
            wants = names;
            waitingSince = System.nanoTime();
        }

        void inside() {
            longestWait = Math.max(longestWait, System.nanoTime() - waitingSince);
            waitingSince = 0;
        }

        void out() {
            rounds++;
        }
    }

    /** Closes what it was given, newest first, every one even when one fails; the first failure is thrown. */
    private static final class Closer implements AutoCloseable {

        private final List<AutoCloseable> opened = new ArrayList<>();

        <T extends AutoCloseable> T add(T resource) {
            opened.add(resource);
            return resource;
        }

        @Override
        public void close() throws Exception {
            Exception first = null;
            for (int i = opened.size() - 1; i >= 0; i--) {
                try {
                    opened.get(i).close();
                } catch (Exception e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }
}
