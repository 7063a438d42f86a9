package dev.lockstep.testkit.scenario;

import dev.lockstep.testkit.fixture.ZooKeeperEnsemble;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * A scenario's {@link ZooKeeperEnsemble}, watched: what it does to lock nodes is recorded in the
 * {@value #LANE} lane, a contender's node created, and deleted, by its holder's unlock or by the
 * ensemble when the holder's session ended. A node stores its client's id, which names the actor
 * ({@link History#client}).
 */
public final class WatchedEnsemble implements AutoCloseable {

    /** The lane the ensemble's events are drawn in. */
    static final String LANE = "zookeeper";

    /** The lock nodes' parent, as the ZooKeeper lock lays them out: {@code /lockstep/locks/NAME/NODE}. */
    private static final String LOCKS = "/lockstep/locks";

    private static final Duration LOAD = Duration.ofSeconds(30);
    private static final Duration CATCH_UP = Duration.ofSeconds(2);

    private final ZooKeeperEnsemble ensemble;
    private final CuratorFramework curator;
    private final CuratorCache cache;
    private final History history;

    /** Starts three servers, watched into {@code history} from before the story's first lock. */
    WatchedEnsemble(History history) {
        this.history = history;
        this.ensemble = ZooKeeperEnsemble.start();
        this.curator = CuratorFrameworkFactory.newClient(ensemble.connectString(), new ExponentialBackoffRetry(100, 5));
        this.cache = CuratorCache.build(curator, LOCKS);
        CountDownLatch loaded = new CountDownLatch(1);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreates(node -> record(node, "created"))
                .forDeletes(node -> record(node, "deleted"))
                .forInitialized(loaded::countDown)
                .build());
        curator.start();
        cache.start();
        try {
            // From here on no lock node goes unseen: the story starts only once the watch sees the ensemble.
            if (!loaded.await(LOAD.toMillis(), TimeUnit.MILLISECONDS)) {
                close();
                throw new IllegalStateException("the ensemble's watch did not load within " + LOAD.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the ensemble's watch loaded", e);
        }
    }

    /** A lock node's event, as {@code orders: A's node 1 created}; the lock's own path is no node. */
    private void record(ChildData node, String what) {
        String[] parts = node.getPath().substring(LOCKS.length()).split("/");
        if (parts.length != 3) {
            return;
        }
        String owner = node.getData() == null ? null
                : history.clients().get(new String(node.getData(), StandardCharsets.UTF_8));
        String sequence = parts[2].replaceFirst(".*-lock-0*(?=\\d)", "");
        history.record(LANE, Kind.NOTE, parts[1] + ": " + (owner == null ? "a" : owner + "'s") + " node " + sequence
                + " " + what);
    }

    /** Where clients connect. */
    public String connectString() {
        return ensemble.connectString();
    }

    /** Kills the leader at once, as a crash would; returns its name, e.g. {@code zk2}. */
    public String killLeader() {
        return ensemble.killLeader();
    }

    /**
     * Waits until a live server leads, and the watch is connected again, so it sees the next nodes;
     * returns the leader's name.
     */
    public String awaitLeader() throws InterruptedException {
        String leader = ensemble.awaitLeader();
        if (!curator.blockUntilConnected((int) LOAD.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the ensemble's watch did not reconnect within " + LOAD.toSeconds() + " s");
        }
        return leader;
    }

    /** Lets the watch hear of nodes deleted just before (an unlock at the story's end), then stops it and the servers. */
    @Override
    public void close() {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        try {
            while (System.nanoTime() < deadline && cache.stream().anyMatch(this::goneFromEnsemble)) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            cache.close();
            curator.close();
            ensemble.close();
        }
    }

    private boolean goneFromEnsemble(ChildData node) {
        try {
            return curator.checkExists().forPath(node.getPath()) == null;
        } catch (Exception e) {
            return false;
        }
    }
}
