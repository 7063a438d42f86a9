package dev.lockstep.lab;

import static dev.lockstep.lab.Checks.require;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.stage.Stage;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import redis.clients.jedis.RedisClient;

/** {@code lab check}: one stage's lock, taken, re-entered, renewed, waited for and released on your own Redis. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {
                "Checks that a stage's lock works on your Redis, with your user, password and TLS: two clients",
                "take, re-enter, renew, wait for and release one lock, and the key is gone afterwards. A refused",
                "command is reported with the permission Redis named; each lesson's 'Permissions' section has",
                "the smallest ACL rule for its stage."},
        footer = {"",
                "URL: redis://[user:password@]host:port[/db], or rediss://... for TLS. A server certificate",
                "your JDK does not trust: --trust with its CA certificate (PEM).",
                "Exit status: 0 when every check passed, 1 otherwise."})
final class CheckCommand implements Callable<Integer> {

    private static final Duration STEP = Duration.ofSeconds(10);
    private static final Duration WATCHDOG = Duration.ofSeconds(1);

    @Option(names = "--url", required = true, split = ",", paramLabel = "URL",
            description = "Your Redis; for v6-redlock, each independent master (at least 3), comma-separated.")
    private List<URI> urls;

    @Option(names = "--stage", defaultValue = "v5-pubsub-retry", paramLabel = "STAGE",
            converter = RunCommand.StageName.class, description = "The stage to check. Default: ${DEFAULT-VALUE}.")
    private Stage stage;

    @Option(names = "--trust", paramLabel = "PEM",
            description = "For rediss:// URLs: trust the CA certificate in this PEM file instead of the JDK's.")
    private Path trust;

    @Option(names = "--name", defaultValue = "lockstep-check", paramLabel = "NAME",
            description = "The lock to use: nobody else should be using it. Default: ${DEFAULT-VALUE}.")
    private String name;

    @Spec
    private CommandSpec spec;

    /** Runs the checks in order, stopping at the first that fails; the exit status. */
    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (urls.size() != stage.nodeCount() && !(stage.multiNode() && urls.size() >= 3)) {
            out.printf("%s needs %s, got %d URL(s)%n", stage, stage.multiNode() ? "3 or more --url" : "one --url",
                    urls.size());
            return 1;
        }
        out.printf("check: %s on %s%n", stage, String.join(", ", urls.stream().map(RedisUrls::withoutPassword).toList()));
        List<RedisClient> clients = new ArrayList<>();
        CheckThread holderThread = new CheckThread("check-holder", STEP);
        CheckThread rivalThread = new CheckThread("check-rival", STEP);
        LockOptions options = LockOptions.defaults().withWatchdogTimeout(WATCHDOG);
        try (Locks a = stage.open(RedisUrls.connect(urls, trust, clients), options);
                Locks b = stage.open(RedisUrls.connect(urls, trust, clients), options)) {
            DistLock holder = a.get(name);
            DistLock rival = b.get(name);
            Checks checks = new Checks(out);
            boolean passed = checks.step("lock '" + name + "'", () -> holderThread.run(
                    () -> require(holder.tryLock(Duration.ZERO, null), "someone holds '" + name + "': pick another --name")))
                    && (!a.guarantees().contains(Guarantee.REENTRANT) || checks.step("re-enter", () -> holderThread.run(() -> {
                        require(holder.tryLock(Duration.ZERO, null), "the holder could not take its own lock again");
                        holder.unlock();
                    })))
                    && (!a.guarantees().contains(Guarantee.LEASE_RENEWAL) || checks.step("renew (watchdog "
                    + WATCHDOG.toMillis() + " ms, held for 3 of it)", () -> {
                        Thread.sleep(WATCHDOG.multipliedBy(3).toMillis());
                        holderThread.run(() -> require(holder.isHeldByCurrentThread(), "the lease was lost: not renewed"));
                    }))
                    && checks.step("a second client waits, the unlock lets it in", () -> {
                        Future<Boolean> waited = rivalThread.submit(() -> rival.tryLock(STEP, null));
                        awaitAsleep(rivalThread.thread(), waited);
                        long released = System.nanoTime();
                        holderThread.run(holder::unlock);
                        require(rivalThread.result(waited), "the waiter never got the lock");
                        checks.note(String.format("(%.1f ms after the unlock)", (System.nanoTime() - released) / 1e6));
                        rivalThread.run(rival::unlock);
                    })
                    && checks.step("nothing left in Redis", () -> {
                        for (RedisClient client : clients.subList(0, urls.size())) {
                            require(!client.exists(name), "the key '" + name + "' is still there");
                        }
                    });
            if (!passed) {
                releaseIfHeld(holderThread, holder);
                out.println("see the stage's lesson, section 'Permissions', for the smallest ACL rule it needs");
                return 1;
            }
            out.println("every check passed");
            return 0;
        } finally {
            holderThread.stop();
            rivalThread.stop();
            clients.forEach(RedisClient::close);
            out.flush();
        }
    }

    /** A check that failed half-way must not leave its hold to expire: the lock is released if it is still held. */
    private static void releaseIfHeld(CheckThread holderThread, DistLock holder) {
        try {
            holderThread.run(() -> {
                if (holder.isHeldByCurrentThread()) {
                    holder.unlock();
                }
            });
        } catch (Exception e) {
            // What failed is already reported; the lease ends the hold.
        }
    }

    /** Waits until the waiter sleeps between tries (a spin, or on the release channel). */
    private static void awaitAsleep(Thread rival, Future<Boolean> waited) throws Exception {
        long deadline = System.nanoTime() + STEP.toNanos();
        while (rival.getState() != Thread.State.TIMED_WAITING && !waited.isDone()) {
            require(System.nanoTime() < deadline, "the waiter did not start waiting");
            Thread.sleep(5);
        }
    }
}
