package dev.lockstep.lab;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.stage.Stage;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.JedisURIHelper;

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
        out.printf("check: %s on %s%n", stage, String.join(", ", urls.stream().map(CheckCommand::withoutPassword).toList()));
        List<RedisClient> clients = new ArrayList<>();
        ExecutorService holderThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "check-holder"));
        AtomicReference<Thread> rivalsThread = new AtomicReference<>();
        ExecutorService rivalThread = Executors.newSingleThreadExecutor(r -> {
            rivalsThread.set(new Thread(r, "check-rival"));
            return rivalsThread.get();
        });
        LockOptions options = LockOptions.defaults().withWatchdogTimeout(WATCHDOG);
        try (Locks a = stage.open(connect(clients), options); Locks b = stage.open(connect(clients), options)) {
            DistLock holder = a.get(name);
            DistLock rival = b.get(name);
            Checks checks = new Checks(out);
            boolean passed = checks.step("lock '" + name + "'", () -> on(holderThread,
                    () -> require(holder.tryLock(Duration.ZERO, null), "someone holds '" + name + "': pick another --name")))
                    && (!a.guarantees().contains(Guarantee.REENTRANT) || checks.step("re-enter", () -> on(holderThread, () -> {
                        require(holder.tryLock(Duration.ZERO, null), "the holder could not take its own lock again");
                        holder.unlock();
                    })))
                    && (!a.guarantees().contains(Guarantee.LEASE_RENEWAL) || checks.step("renew (watchdog "
                    + WATCHDOG.toMillis() + " ms, held for 3 of it)", () -> {
                        Thread.sleep(WATCHDOG.multipliedBy(3).toMillis());
                        on(holderThread, () -> require(holder.isHeldByCurrentThread(), "the lease was lost: not renewed"));
                    }))
                    && checks.step("a second client waits, the unlock lets it in", () -> {
                        Future<Boolean> waited = rivalThread.submit(() -> rival.tryLock(STEP, null));
                        awaitAsleep(rivalsThread.get(), waited);
                        long released = System.nanoTime();
                        on(holderThread, holder::unlock);
                        require(result(waited), "the waiter never got the lock");
                        checks.note(String.format("(%.1f ms after the unlock)", (System.nanoTime() - released) / 1e6));
                        on(rivalThread, rival::unlock);
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
            holderThread.shutdownNow();
            rivalThread.shutdownNow();
            clients.forEach(RedisClient::close);
            out.flush();
        }
    }

    /** A check that failed half-way must not leave its hold to expire: the lock is released if it is still held. */
    private static void releaseIfHeld(ExecutorService holderThread, DistLock holder) {
        try {
            on(holderThread, () -> {
                if (holder.isHeldByCurrentThread()) {
                    holder.unlock();
                }
            });
        } catch (Exception e) {
            // What failed is already reported; the lease ends the hold.
        }
    }

    /** One client per URL, for one {@link Locks}; every client made is added to {@code all}. */
    private List<RedisClient> connect(List<RedisClient> all) {
        SSLSocketFactory trusted = trust == null ? null : trusting(trust);
        List<RedisClient> made = new ArrayList<>();
        for (URI url : urls) {
            if (!JedisURIHelper.isValid(url)) {
                throw new IllegalArgumentException("--url must look like redis://[user:password@]host:port, was "
                        + withoutPassword(url));
            }
            RedisClient client = RedisClient.builder()
                    .hostAndPort(JedisURIHelper.getHostAndPort(url))
                    .clientConfig(DefaultJedisClientConfig.builder()
                            .user(JedisURIHelper.getUser(url))
                            .password(JedisURIHelper.getPassword(url))
                            .database(JedisURIHelper.getDBIndex(url))
                            .ssl(JedisURIHelper.isRedisSSLScheme(url))
                            .sslSocketFactory(trusted)
                            .connectionTimeoutMillis(2000)
                            .socketTimeoutMillis(2000)
                            .build())
                    .build();
            made.add(client);
            all.add(client);
        }
        return made;
    }

    /** Sockets that trust the CA certificate in {@code pem}, and nothing else. */
    private static SSLSocketFactory trusting(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--trust " + pem + " is not a readable PEM certificate: "
                    + e.getMessage(), e);
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

    private static void require(boolean condition, String otherwise) {
        if (!condition) {
            throw new IllegalStateException(otherwise);
        }
    }

    private static <T> T on(ExecutorService thread, Callable<T> call) throws Exception {
        return result(thread.submit(call));
    }

    /** What {@code result} gave within one step's time, its own failure rethrown as it was. */
    private static <T> T result(Future<T> result) throws Exception {
        try {
            return result.get(STEP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            result.cancel(true);
            throw new IllegalStateException("no answer within " + STEP.toMillis() + " ms", e);
        }
    }

    private static void on(ExecutorService thread, Step step) throws Exception {
        on(thread, () -> {
            step.run();
            return null;
        });
    }

    private static String withoutPassword(URI url) {
        return url.getUserInfo() == null ? url.toString() : url.toString().replace(url.getRawUserInfo(),
                url.getUserInfo().contains(":") ? url.getUserInfo().substring(0, url.getUserInfo().indexOf(':')) + ":***"
                        : "***");
    }

    /** A check's body. */
    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** Prints each check as it passes or fails. */
    private static final class Checks {

        private final PrintWriter out;
        private String note = "";

        Checks(PrintWriter out) {
            this.out = out;
        }

        boolean step(String what, Step step) {
            note = "";
            try {
                step.run();
                out.printf("  ok    %s%s%n", what, note.isEmpty() ? "" : " " + note);
                return true;
            } catch (Exception e) {
                out.printf("  FAIL  %s: %s: %s%n", what, e.getClass().getSimpleName(), e.getMessage());
                return false;
            } finally {
                out.flush();
            }
        }

        void note(String text) {
            note = text;
        }
    }
}
