package dev.lockstep.v5;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.v5.internal.Subscriber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The subscription's heartbeat on a quiet channel: its probes keep the subscription, never break it. */
class HeartbeatTest extends OneNodeTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    /**
     * Waiters asleep on a quiet subscription probe it every heartbeat, on a busy machine: no answer
     * to a probe may break the subscription. Jedis 8 speaks RESP3, where a subscribed PING gets a
     * plain PONG that Jedis's listener can place only if its handler was queued first, and Jedis
     * queues it after sending the PING: a read thread that won that race broke its loop.
     */
    @Test
    void heartbeatsOnABusyMachineKeepEverySubscription() throws Exception {
        int waiters = 16;
        Duration quiet = Subscriber.HEARTBEAT.multipliedBy(4);
        DistLock holder = client(node.newClient()).get("quiet");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        List<LockThread> threads = new ArrayList<>();
        List<Future<Boolean>> waits = new ArrayList<>();
        // Two spinning threads keep both cores busy, so a waiter is often preempted between two steps of a call.
        AtomicBoolean spinning = new AtomicBoolean(true);
        List<Thread> spinners = List.of(spinner(spinning), spinner(spinning));
        try {
            for (int w = 0; w < waiters; w++) {
                DistLock waiter = client(node.newClient()).get("quiet");
                LockThread thread = new LockThread("quiet-" + w);
                threads.add(thread);
                waits.add(thread.submit(() -> waiter.tryLock(quiet, null)));
            }
            Await.until("every waiter subscribes", WAIT, () -> Probe.subscribers(node, Probe.channel("quiet")) == waiters);
            Set<String> subscriptions = Probe.subscribedConnections(node);
            Set<String> seen = new TreeSet<>(subscriptions);
            while (!waits.stream().allMatch(Future::isDone)) {
                seen.addAll(Probe.subscribedConnections(node));
                Thread.sleep(20);
            }
            for (Future<Boolean> wait : waits) {
                assertFalse(LockThread.get(wait, WAIT), "the lock was held throughout");
            }
            assertEquals(subscriptions, seen, "a subscription broke and was replaced while its waiters slept through heartbeats");
        } finally {
            spinning.set(false);
            for (Thread spinner : spinners) {
                spinner.join();
            }
            for (LockThread thread : threads) {
                thread.close();
            }
            holder.unlock();
        }
    }

    /** A thread that keeps a core busy while {@code spinning} is set. */
    private static Thread spinner(AtomicBoolean spinning) {
        Thread spinner = new Thread(() -> {
            while (spinning.get()) {
                Thread.onSpinWait();
            }
        }, "busy-core");
        spinner.setDaemon(true);
        spinner.start();
        return spinner;
    }
}
