package dev.lockstep.testkit.contract;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.interop.InteropGround;
import dev.lockstep.testkit.interop.RedissonClients;
import dev.lockstep.testkit.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Stories of a lock type and its Redisson twin, played on one server and on a three-master
 * Cluster: a test class names its stage and plays its stories on each {@link InteropGround}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class InteropStories {

    private final Stage stage;
    private InteropGround server;
    private InteropGround cluster;

    /** The stories of stage {@code name}, whose entry point is {@code locks}. */
    protected InteropStories(String name, Class<? extends Locks> locks) {
        this.stage = new Stage(name, locks);
    }

    @BeforeAll
    void start() {
        server = InteropGround.server(stage, LockOptions.defaults());
        cluster = InteropGround.cluster(stage, LockOptions.defaults());
    }

    @AfterAll
    void stop() {
        server.close();
        cluster.close();
        RedissonClients.awaitAllShutDown();
    }

    @Test
    void onAServer() throws Exception {
        play(server, "server");
    }

    @Test
    void onACluster() throws Exception {
        play(cluster, "cluster");
    }

    /** Plays every story on {@code ground}, which failure messages call {@code where}. */
    protected abstract void play(InteropGround ground, String where) throws Exception;
}
