package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Intrusion;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.RedisTraffic;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Redis evicts a held lock. The lock's node has a {@code maxmemory} and {@code volatile-ttl}, and
 * shares its memory with a cache in database 1 whose keys have no TTL. Every lock key has one, so
 * the lock is the only key the policy may pick (and {@code volatile-ttl} would pick it first
 * anyway: a lease is shorter than any cache entry's life). A takes the lock; the cache fills past
 * the limit; Redis evicts A's key; the cache is dropped, and B asks for the lock while A still
 * works. On independent masters (a quorum stage) only the first node has the limit: one of five
 * forgets A's key, as in {@link Failover}. Judged by {@link Checker#intrusions}.
 */
public final class EvictedLock extends Scenario {

    private static final String LOCK = "orders";
    /**
     * Long enough that no renewal falls between the eviction and B's acquisition: a watchdog finds
     * the key gone only at its next renewal, a third of the lease later, when B may hold it already.
     */
    private static final Duration LEASE = Duration.ofSeconds(3);
    /** Room above what the node uses when A locks: a few cache writes fill it. */
    private static final long HEADROOM_BYTES = 1024 * 1024;
    private static final int VALUE_BYTES = 64 * 1024;
    private static final int MOST_WRITES = 100;
    private static final int CACHE_DB = 1;
    private static final Duration EVICTION = Duration.ofSeconds(2);
    private static final Duration WORK = Duration.ofMillis(200);
    private static final Duration B_WAIT = Duration.ofMillis(500);

    /** The scenario as the catalog lists it. */
    public EvictedLock() {
        super("evicted-lock", Guarantee.FAILOVER_SAFE,
                "A holds the lock when a cache sharing its Redis fills it past maxmemory; the eviction policy "
                + "(volatile-ttl) picks the only key with a TTL, A's lock; B asks for the lock while A still works.");
    }

    /** Eviction is Redis's: the lock must live in Redis. */
    @Override
    public boolean appliesTo(Stage stage) {
        return stage.nodeCount() > 0;
    }

    @Override
    public String needs() {
        return "a Redis lock";
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        History history = context.history();
        LockOptions options = Stage.leaseOptions(LEASE);
        RedisNode victim = context.node();
        String lane = context.stage().multiNode() ? "n1" : "master";
        try (Jedis cache = victim.admin()) {
            cache.clientSetname(RedisTraffic.UNCOUNTED_CLIENT);
            long limit = usedMemory(cache) + HEADROOM_BYTES;
            cache.configSet("maxmemory-policy", "volatile-ttl");
            cache.configSet("maxmemory", Long.toString(limit));
            history.record(History.REDIS, Kind.NOTE, lane + ": maxmemory " + limit / 1024 + " KB, volatile-ttl");
            Actor a = context.actor("A", options);
            if (!a.tryLock(LOCK, Duration.ZERO, null)) {
                throw new TooSlowToPlay("A could not take a free lock");
            }
            Long aToken = a.token(LOCK);
            a.enter("enter");
            history.record(History.REDIS, Kind.FAULT, lane + ": a cache in db " + CACHE_DB + " writes "
                    + VALUE_BYTES / 1024 + " KB values, no TTL");
            int writes = fill(cache);
            // The watch's record of the eviction, so the timeline shows it before B asks.
            Await.until("Redis evicts A's key", EVICTION, () -> evictedKeys(cache) > 0 && !lockKeyThere(cache)
                    && history.events().stream().anyMatch(e -> e.detail().equals(LOCK + " evicted")));
            dropCache(cache);
            history.record(History.REDIS, Kind.NOTE, lane + ": evicted_keys " + evictedKeys(cache) + " after "
                    + writes * (VALUE_BYTES / 1024) + " KB; the cache is dropped");
            return bAsksWhileAWorks(context, a, aToken, options);
        }
    }

    /** B asks for the lock, and works if it gets it; then A, which never heard of the eviction, finishes: judged. */
    private static Verdict bAsksWhileAWorks(ScenarioContext context, Actor a, Long aToken, LockOptions options)
            throws InterruptedException {
        Actor b = context.actor("B", options);
        Long bToken = null;
        if (b.tryLock(LOCK, B_WAIT, null)) {
            bToken = b.token(LOCK);
            b.critical(WORK);
            b.unlock(LOCK);
        }
        a.exit("exit");
        // A renewal that found the key gone before B was done told A first (a JDK 25 run's B took 250 ms to lock
        // a free key, and A was told in between): a machine that slow never set the story up.
        if (context.history().first("A", Kind.LOST).isPresent()) {
            throw new TooSlowToPlay("a renewal found A's key evicted before B was done");
        }
        a.unlock(LOCK);
        List<Intrusion> intrusions = Checker.intrusions(context.history());
        if (!intrusions.isEmpty()) {
            String fence = aToken == null || bToken == null ? "" : "; B's token " + bToken + " is greater than A's "
                    + aToken + " (the counter has no TTL, so volatile-ttl cannot evict it): a resource that checks "
                    + "tokens would refuse A's writes after B's";
            return Verdict.violated(intrusions.get(0) + ": Redis evicted A's key under memory pressure" + fence + ".");
        }
        return Verdict.held("B could not take the lock while A held it, though one node evicted A's key.");
    }

    /** Writes cache entries with no TTL until Redis has evicted a key or refuses a write: how many went in. */
    private static int fill(Jedis cache) {
        byte[] value = new byte[VALUE_BYTES];
        cache.select(CACHE_DB);
        try {
            for (int i = 0; i < MOST_WRITES; i++) {
                try {
                    cache.set(("cache:" + i).getBytes(), value);
                } catch (JedisDataException outOfMemory) {
                    // Nothing left that the policy may pick: the lock went before this write.
                    return i;
                }
                if (evictedKeys(cache) > 0) {
                    return i + 1;
                }
            }
            throw new IllegalStateException(MOST_WRITES + " cache writes and Redis evicted nothing");
        } finally {
            cache.select(0);
        }
    }

    /**
     * Empties the cache's database: with the lock gone nothing is left that the policy may pick, and
     * Redis would refuse every write, B's lock call included. The lock's database, with stage 7's
     * token counter, is left alone.
     */
    private static void dropCache(Jedis cache) {
        cache.select(CACHE_DB);
        try {
            cache.flushDB();
        } finally {
            cache.select(0);
        }
    }

    private static boolean lockKeyThere(Jedis admin) {
        int db = admin.getDB();
        admin.select(0);
        try {
            return admin.exists(LOCK);
        } finally {
            admin.select(db);
        }
    }

    private static long usedMemory(Jedis admin) {
        return infoField(admin, "memory", "used_memory:");
    }

    private static long evictedKeys(Jedis admin) {
        return infoField(admin, "stats", "evicted_keys:");
    }

    private static long infoField(Jedis admin, String section, String field) {
        return admin.info(section).lines().filter(line -> line.startsWith(field))
                .mapToLong(line -> Long.parseLong(line.substring(field.length()).trim())).findFirst()
                .orElseThrow(() -> new IllegalStateException("INFO " + section + " has no " + field));
    }
}
