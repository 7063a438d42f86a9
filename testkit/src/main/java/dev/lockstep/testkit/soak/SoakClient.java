package dev.lockstep.testkit.soak;

import dev.lockstep.testkit.client.ChildJvm;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One soak client: a {@link SoakWorkerMain} JVM connected to every node through a
 * {@link FaultyLink} of its own, so a fault on its side of the wire touches no other client.
 * A crash kills the JVM; the client then comes back as a new JVM (a new client id) on the same links.
 */
final class SoakClient implements AutoCloseable {

    private static final Duration STARTUP = Duration.ofSeconds(30);

    private final String name;
    private final Stage stage;
    private final Duration lease;
    private final int threads;
    private final List<String> lockNames;
    private final List<FaultyLink> links;
    private final Consumer<SoakEvent> events;
    private int generation;
    private long seed;
    private ChildJvm jvm;
    private CountDownLatch stopped;

    SoakClient(String name, Stage stage, Duration lease, int threads, List<String> lockNames, List<RedisNode> nodes,
               long seed, Consumer<SoakEvent> events) {
        this.name = name;
        this.stage = stage;
        this.lease = lease;
        this.threads = threads;
        this.lockNames = lockNames;
        this.seed = seed;
        this.events = events;
        this.links = nodes.stream().map(node -> FaultyLink.to(node.address())).toList();
        start();
    }

    /** Its links, one per node, for the faults on its side of the wire. */
    List<FaultyLink> links() {
        return links;
    }

    /** The client's current name: its base name, and which life this is after crashes. */
    String current() {
        return name + (generation == 0 ? "" : "#" + generation);
    }

    /** SIGKILL: every hold of this client is abandoned mid-work. Then a fresh JVM takes its place. */
    void crashAndRestart() {
        jvm.kill();
        events.accept(new SoakEvent(System.nanoTime(), System.nanoTime(), current(), SoakEvent.Kind.CRASHED, "-",
                "killed (SIGKILL)"));
        generation++;
        seed++;
        start();
    }

    /** SIGSTOP: a stop-the-world pause of the whole client. */
    void pause() {
        jvm.pause();
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() {
        jvm.resume();
    }

    /** Asks the workers to finish, unlock and end; waits until they did. */
    void stop(Duration within) throws InterruptedException {
        jvm.send("stop");
        if (!stopped.await(within.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("soak client " + current() + " did not stop within " + within);
        }
    }

    @Override
    public void close() {
        if (jvm != null) {
            jvm.close();
        }
        links.forEach(FaultyLink::close);
    }

    private void start() {
        CountDownLatch ready = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        stopped = done;
        jvm = new ChildJvm("soak client " + current(), SoakWorkerMain.class, 96, List.of(), List.of(
                stage.locksClass().getName(), Long.toString(lease.toMillis()),
                links.stream().map(link -> link.address().toString()).collect(Collectors.joining(",")),
                current(), Integer.toString(threads), String.join(",", lockNames), Long.toString(seed)),
                SoakEvent.PREFIX, "lockstep-soak-" + current(), line -> take(SoakEvent.parse(line), ready, done));
        try {
            if (!ready.await(STARTUP.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("soak client " + current() + " did not start within " + STARTUP);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting soak client " + current(), e);
        }
    }

    private void take(SoakEvent event, CountDownLatch ready, CountDownLatch done) {
        switch (event.kind()) {
            case READY -> ready.countDown();
            case STOPPED -> done.countDown();
            default -> events.accept(event);
        }
    }
}
