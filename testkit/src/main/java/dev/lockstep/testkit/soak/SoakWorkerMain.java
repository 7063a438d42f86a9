package dev.lockstep.testkit.soak;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * The program a {@link SoakClient} runs: one client of a stage in its own JVM, whose worker
 * threads lock a few names at random, work a little and unlock, as long as stdin stays open.
 * Every step is printed as an {@link SoakEvent} line stamped with {@code System.nanoTime()},
 * which on one machine every JVM reads from the same monotonic clock.
 *
 * <p>Beside lock and unlock, the workers use the rest of the API as services do: a holder sometimes
 * re-enters (and unlocks twice), a worker sometimes force-unlocks a lock whoever holds it, and
 * sometimes interrupts a sibling thread, which may be waiting for a lock (it then holds nothing,
 * and goes on). When the client is a {@link CompositeLocks}, half the rounds take 2 or 3 of the
 * names, listed in random order, as one lock ({@link CompositeLocks#getAll}); each of its names
 * then gets the round's events, so every name's sections are judged whoever took them. Some rounds
 * take a hold handle ({@code tryAcquire}) and work it on another thread ({@link HandleRound}); a
 * thread's hold is sometimes extended while it works ({@code extend}, by the watchdog's lease).
 *
 * <p>A worker checks {@link DistLock#isHeldByCurrentThread()} between slices of its work and
 * stops as soon as it is told the lease is lost: the soak judges the lock, not a worker that
 * ignores the news. After a failed lock call it tries the same lock again, as a caller would.
 * On {@code stop} every worker finishes its round, unlocks and ends; then the program exits.
 */
public final class SoakWorkerMain {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final long SLICE_MILLIS = 5;
    /** Per round, the chance a holder re-enters, that a worker force-unlocks a lock, that it interrupts a sibling. */
    private static final double REENTER = 0.25;
    private static final double FORCE_UNLOCK = 0.01;
    private static final double INTERRUPT = 0.02;
    /** Per round of a {@link CompositeLocks} client, the chance it takes several names as one lock. */
    private static final double SEVERAL_NAMES = 0.5;
    /** Per round, the chance it takes a hold handle rather than the thread's hold; per thread's hold, that it extends it. */
    private static final double HANDLE = 0.2;
    private static final double EXTEND = 0.2;

    private static volatile boolean stopping;

    private SoakWorkerMain() {
    }

    /** Args: Locks class, lease ms, nodes as host:port,..., client name, threads, lock names a,b,..., seed. */
    public static void main(String[] args) throws Exception {
        @SuppressWarnings("unchecked")
        Class<? extends Locks> locksClass = (Class<? extends Locks>) Class.forName(args[0]);
        LockOptions options = Stage.leaseOptions(Duration.ofMillis(Long.parseLong(args[1])));
        Duration lease = options.lease();
        List<RedisClient> nodes = Arrays.stream(args[2].split(","))
                .map(address -> RedisNode.newClient(HostAndPort.from(address))).toList();
        String client = args[3];
        int threads = Integer.parseInt(args[4]);
        List<String> names = List.of(args[5].split(","));
        long seed = Long.parseLong(args[6]);
        Locks locks = new Stage(client, locksClass).open(nodes, options);
        for (String name : names) {
            locks.get(name).onLeaseLost(loss -> SoakEvent.print(client + "/" + loss.threadId(), SoakEvent.Kind.LOST,
                    name, loss.reason()));
        }
        List<Thread> workers = new CopyOnWriteArrayList<>();
        ExecutorService handles = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, client + "-handle");
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < threads; i++) {
            Random random = new Random(seed * 31 + i);
            Thread worker = new Thread(() -> work(locks, client, names, lease, random, workers, handles), client + "-w" + i);
            workers.add(worker);
            worker.start();
        }
        SoakEvent.print(client, SoakEvent.Kind.READY, "-", "pid " + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line = in.readLine();
        if (line == null) {
            // stdin closed: the parent is gone. Exit as a crash would.
            Runtime.getRuntime().halt(0);
        }
        stopping = true;
        for (Thread worker : workers) {
            worker.join(TimeUnit.SECONDS.toMillis(30));
        }
        SoakEvent.print(client, SoakEvent.Kind.STOPPED, "-", "every worker unlocked and ended");
        Runtime.getRuntime().halt(0);
    }

    private static void work(Locks locks, String client, List<String> names, Duration lease, Random random,
                             List<Thread> siblings, ExecutorService handles) {
        String me = client + "/" + Thread.currentThread().getId();
        while (!stopping) {
            String name = names.get(random.nextInt(names.size()));
            if (random.nextDouble() < FORCE_UNLOCK) {
                forceUnlock(me, name, locks.get(name));
            }
            if (random.nextDouble() < INTERRUPT) {
                Thread sibling = siblings.get(random.nextInt(siblings.size()));
                if (sibling != Thread.currentThread()) {
                    sibling.interrupt();
                }
            }
            List<String> picked = List.of(name);
            DistLock lock = locks.get(name);
            if (locks instanceof CompositeLocks composite && names.size() > 1 && random.nextDouble() < SEVERAL_NAMES) {
                picked = severalOf(names, random);
                lock = composite.getAll(picked.toArray(String[]::new));
            }
            if (random.nextDouble() < HANDLE) {
                HandleRound.play(client, picked, lock, WAIT, lease, 5 + random.nextInt(45), random, handles);
                Thread.interrupted();
                pause(random.nextInt(20));
                continue;
            }
            boolean taken = false;
            for (int tries = 0; !taken && !stopping && tries < 3; tries++) {
                long since = System.nanoTime();
                try {
                    taken = lock.tryLock(WAIT, null);
                    print(me, taken ? SoakEvent.Kind.ACQUIRED : SoakEvent.Kind.DENIED, picked, since, "");
                } catch (LockException | IllegalStateException e) {
                    print(me, SoakEvent.Kind.ERROR, picked, since, e.getMessage());
                    pause(50 + random.nextInt(200));
                } catch (InterruptedException e) {
                    print(me, SoakEvent.Kind.INTERRUPTED, picked, since, "interrupted while waiting");
                }
            }
            if (taken) {
                boolean reentered = random.nextDouble() < REENTER && reenter(me, picked, lock);
                Duration extend = random.nextDouble() < EXTEND ? lease : null;
                holdAndRelease(me, picked, lock, 5 + random.nextInt(45), reentered, extend);
            }
            // An interrupt that came outside a wait is for the next wait, not this one's pause.
            Thread.interrupted();
            pause(random.nextInt(20));
        }
    }

    /** 2 or 3 of {@code names} (as many as there are, at most), in random order. */
    private static List<String> severalOf(List<String> names, Random random) {
        List<String> shuffled = new ArrayList<>(names);
        Collections.shuffle(shuffled, random);
        return List.copyOf(shuffled.subList(0, Math.min(shuffled.size(), 2 + random.nextInt(2))));
    }

    /** Prints one event per name that {@code lock} covers: the verdict judges each name on its own. */
    private static void print(String me, SoakEvent.Kind kind, List<String> names, long since, String detail) {
        for (String name : names) {
            SoakEvent.print(me, kind, name, since, detail);
        }
    }

    /** One more hold of a lock this thread has; true when granted (the holder then unlocks twice). */
    private static boolean reenter(String me, List<String> names, DistLock lock) {
        long since = System.nanoTime();
        try {
            boolean granted = lock.tryLock(Duration.ZERO, null);
            print(me, SoakEvent.Kind.REENTERED, names, since, granted ? "" : "refused");
            return granted;
        } catch (LockException | InterruptedException e) {
            print(me, SoakEvent.Kind.REENTERED, names, since, "failed: " + e.getMessage());
            return false;
        }
    }

    private static void forceUnlock(String me, String name, DistLock lock) {
        long since = System.nanoTime();
        try {
            SoakEvent.print(me, SoakEvent.Kind.FORCED, name, since, lock.forceUnlock() ? "deleted" : SoakEvent.NOTHING_FORCED);
        } catch (LockException e) {
            // The delete may have run before the reply was lost: the verdict counts it as a force.
            SoakEvent.print(me, SoakEvent.Kind.FORCED, name, since, "outcome unknown: " + e.getMessage());
        }
    }

    private static void holdAndRelease(String me, List<String> names, DistLock lock, long workMillis,
                                       boolean reentered, Duration extend) {
        print(me, SoakEvent.Kind.ENTER, names, System.nanoTime(), "");
        boolean told = false;
        for (long done = 0; done < workMillis && !told; done += SLICE_MILLIS) {
            pause(SLICE_MILLIS);
            if (extend != null && done >= workMillis / 2) {
                extend(me, names, lock, extend);
                extend = null;
            }
            told = !lock.isHeldByCurrentThread();
        }
        print(me, SoakEvent.Kind.EXIT, names, System.nanoTime(), told ? "stops: told the lease is lost" : "");
        for (int holds = reentered ? 2 : 1; holds > 0; holds--) {
            long since = System.nanoTime();
            try {
                lock.unlock();
                // Only the last unlock releases: the first of two ends the re-entry.
                print(me, holds > 1 ? SoakEvent.Kind.REENTERED : SoakEvent.Kind.UNLOCKED, names, since,
                        holds > 1 ? "re-entry unlocked" : "");
            } catch (IllegalMonitorStateException | LockException e) {
                print(me, SoakEvent.Kind.UNLOCK_FAILED, names, since, e.getMessage());
            }
        }
    }

    /** Sets the thread's hold's lease; a failure is printed (lost, or unknown: the lock trusts the shorter lease). */
    private static void extend(String me, List<String> names, DistLock lock, Duration lease) {
        long since = System.nanoTime();
        try {
            lock.extend(lease);
        } catch (IllegalMonitorStateException | LockException | IllegalStateException | UnsupportedOperationException e) {
            print(me, SoakEvent.Kind.ERROR, names, since, "extend: " + e.getMessage());
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
