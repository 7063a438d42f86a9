package dev.lockstep.testkit.soak;

import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;

/**
 * The faults a soak draws from, server side and client side. Each is one the soaked stages claim
 * to survive: a lock must end each in a bounded, explained outcome. (Failover without replica
 * sync, a node restarted empty among several, and a holder paused past its lease are documented
 * limits with scenarios of their own; they are not drawn here.)
 */
public enum Fault {
    /** SIGSTOP one node for a while: a stalled server. */
    NODE_PAUSE(false) {
        @Override
        String inject(Target target, Random random) throws InterruptedException {
            RedisNode node = target.anyNode(random);
            long millis = 200 + random.nextInt(500);
            lasting(millis, node::pause, node::resume);
            return node.label() + " stalled " + millis + " ms";
        }
    },
    /** Kill one node and start it again; with appendfsync always it reloads every acknowledged write. */
    NODE_RESTART(false) {
        @Override
        String inject(Target target, Random random) {
            RedisNode node = target.anyNode(random);
            node.restart();
            return node.label() + " restarted (AOF)";
        }
    },
    /** {@code CLIENT KILL TYPE pubsub} on every node: every waiter's subscription drops. */
    KILL_PUBSUB(true) {
        @Override
        String inject(Target target, Random random) {
            long killed = target.nodes().stream().mapToLong(node -> node.killClients("pubsub")).sum();
            return killed + " pub/sub connection(s) dropped";
        }
    },
    /** {@code CLIENT KILL TYPE normal} on one node: requests in flight fail, pools reconnect. */
    KILL_NORMAL(false) {
        @Override
        String inject(Target target, Random random) {
            RedisNode node = target.anyNode(random);
            return node.killClients("normal") + " connection(s) to " + node.label() + " dropped";
        }
    },
    /** One client's replies are dropped for a while: Redis runs its requests, it hears nothing. */
    LOST_REPLIES(false) {
        @Override
        String inject(Target target, Random random) throws InterruptedException {
            SoakClient client = target.anyClient(random);
            long millis = 300 + random.nextInt(1200);
            onLinksLasting(client, millis, FaultyLink::loseReplies);
            return client.current() + " lost every reply for " + millis + " ms";
        }
    },
    /** One client cut off from every node, sometimes for longer than a lease: its holds must be signalled lost. */
    PARTITION(false) {
        @Override
        String inject(Target target, Random random) throws InterruptedException {
            SoakClient client = target.anyClient(random);
            long millis = 300 + random.nextInt(2700);
            onLinksLasting(client, millis, FaultyLink::blackhole);
            return client.current() + " cut off for " + millis + " ms";
        }
    },
    /** One client's subscriptions go half-open: open, silent, never closed. */
    HALF_OPEN_SUBSCRIPTION(true) {
        @Override
        String inject(Target target, Random random) {
            SoakClient client = target.anyClient(random);
            client.links().forEach(FaultyLink::freezeSubscribers);
            return client.current() + "'s subscriptions went half-open";
        }
    },
    /** SIGKILL one client mid-work; a new one takes its place. */
    CLIENT_CRASH(false) {
        @Override
        String inject(Target target, Random random) {
            SoakClient client = target.anyClient(random);
            String crashed = client.current();
            client.crashAndRestart();
            return crashed + " killed, " + client.current() + " started";
        }
    },
    /** SIGSTOP one client briefly, well inside its lease. */
    CLIENT_PAUSE(false) {
        @Override
        String inject(Target target, Random random) throws InterruptedException {
            SoakClient client = target.anyClient(random);
            long millis = 100 + random.nextInt(300);
            lasting(millis, client::pause, client::resume);
            return client.current() + " paused " + millis + " ms";
        }
    };

    private final boolean needsSubscriptions;

    Fault(boolean needsSubscriptions) {
        this.needsSubscriptions = needsSubscriptions;
    }

    /** The fault's name in reports: {@code node-pause}, {@code lost-replies}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the fault only touches pub/sub, so it means nothing to a stage whose waiters spin. */
    boolean needsSubscriptions() {
        return needsSubscriptions;
    }

    /** Injects the fault, heals it if it heals, and says what it did. */
    abstract String inject(Target target, Random random) throws InterruptedException;

    /** What faults are injected into: the soak's nodes and clients. */
    interface Target {

        /** Every node. */
        List<RedisNode> nodes();

        /** Every client. */
        List<SoakClient> clients();

        /** One node, drawn at random. */
        default RedisNode anyNode(Random random) {
            return nodes().get(random.nextInt(nodes().size()));
        }

        /** One client, drawn at random. */
        default SoakClient anyClient(Random random) {
            return clients().get(random.nextInt(clients().size()));
        }
    }

    /** Starts a fault, lets it last {@code millis}, and heals it, whatever happens meanwhile. */
    private static void lasting(long millis, Runnable start, Runnable heal) throws InterruptedException {
        start.run();
        try {
            Thread.sleep(millis);
        } finally {
            heal.run();
        }
    }

    /** Breaks every link of {@code client} with {@code fault} for {@code millis}, then heals them. */
    private static void onLinksLasting(SoakClient client, long millis, Consumer<FaultyLink> fault)
            throws InterruptedException {
        lasting(millis, () -> client.links().forEach(fault), () -> client.links().forEach(FaultyLink::heal));
    }

    /** The quiet time after a fault, 1 to 2.5 s: long enough to see the system settle, short enough for many faults. */
    static Duration quietBetween(Random random) {
        return Duration.ofMillis(1000 + random.nextInt(1500));
    }
}
