package dev.lockstep.bench;

import dev.lockstep.testkit.fixture.ZooKeeperEnsemble;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.data.Stat;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The ZooKeeper lock's own unit, as {@link RoundTrip} is the Redis stages': one read round trip,
 * {@code exists("/")} through a Curator client, on the same kind of in-JVM ensemble. A read is
 * answered by the server the client is connected to; a write (a lock node's creation or deletion)
 * also goes through the leader and a majority, so it costs more than this.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class ZooKeeperRoundTrip {

    private static final int CONNECT_SECONDS = 30;

    private ZooKeeperEnsemble ensemble;
    private CuratorFramework curator;

    @Setup(Level.Trial)
    public void start() throws InterruptedException {
        ensemble = ZooKeeperEnsemble.start();
        curator = CuratorFrameworkFactory.newClient(ensemble.connectString(), new RetryOneTime(100));
        curator.start();
        if (!curator.blockUntilConnected(CONNECT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to " + ensemble.connectString() + " in " + CONNECT_SECONDS + " s");
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        try (ZooKeeperEnsemble closing = ensemble) {
            curator.close();
        }
    }

    @Benchmark
    public Stat checkExists() throws Exception {
        return curator.checkExists().forPath("/");
    }
}
