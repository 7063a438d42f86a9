package dev.lockstep.vthreads;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.fixture.RedisNode;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.Jedis;

/**
 * The most client connections the server counted at once while this was open, sampled every few
 * milliseconds from {@code INFO clients} over a connection of its own (not counted). The server's
 * count, not the pool's: a connection opened outside the pool shows here too. A connection the
 * client has already closed counts until the server reaps it, a turn or two of its event loop
 * later (stage 5 closes a subscription's connection when the subscription ends, and the pool may
 * open another at once), so a count must hold for {@value #HELD_FOR} samples in a row.
 */
final class PeakConnections implements AutoCloseable {

    private static final long SAMPLE_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final int HELD_FOR = 3;

    private final AtomicLong peak = new AtomicLong();
    private final Thread sampler;
    private volatile boolean open = true;

    PeakConnections(RedisNode node) {
        Jedis admin = node.admin();
        sampler = Thread.ofPlatform().name("peak-connections").daemon().start(() -> {
            long[] recent = new long[HELD_FOR];
            try (admin) {
                for (int sample = 0; open; sample++) {
                    recent[sample % HELD_FOR] = connectedClients(admin) - 1;
                    if (sample >= HELD_FOR - 1) {
                        long held = Long.MAX_VALUE;
                        for (long count : recent) {
                            held = Math.min(held, count);
                        }
                        peak.accumulateAndGet(held, Math::max);
                    }
                    LockSupport.parkNanos(SAMPLE_EVERY_NANOS);
                }
            }
        });
    }

    /** The most connections seen at once so far, the sampler's own left out. */
    long peak() {
        return peak.get();
    }

    void assertAtMost(int connections) {
        assertTrue(peak() <= connections, peak() + " connections open at once, more than " + connections);
    }

    @Override
    public void close() throws InterruptedException {
        open = false;
        sampler.join();
    }

    private static long connectedClients(Jedis admin) {
        return admin.info("clients").lines().filter(line -> line.startsWith("connected_clients:"))
                .mapToLong(line -> Long.parseLong(line.substring("connected_clients:".length()).strip()))
                .findFirst().orElseThrow();
    }
}
