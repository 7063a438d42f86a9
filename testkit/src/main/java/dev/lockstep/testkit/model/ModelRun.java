package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.NodeConfig;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.Timeline;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import dev.lockstep.testkit.resource.RedisStock;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import redis.clients.jedis.RedisClient;

/**
 * Plays one history of {@link Step steps} on fresh Redis nodes: three clients of the stage, two
 * owner threads each, every client behind its own {@link FaultyLink}s. After each step the
 * {@link ReferenceModel} takes the call's outcome, the owners' locks are asked what they believe,
 * Redis is read, and the model checks all of it. At the end every owner unlocks what it holds, and
 * a fresh client must get the lock within one lease.
 */
public final class ModelRun {

    static final int CLIENTS = 3;
    static final int THREADS = 2;
    /** What "within one lease" allows for a loaded 2-core machine. */
    static final Duration SLACK = Duration.ofMillis(500);
    /** How long a {@link WireFault#BLIP} keeps a client's link dark. */
    static final Duration BLIP = Duration.ofMillis(250);
    /** The clients' socket timeout: a lost reply costs this much. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofMillis(150);
    private static final Duration SPIN = Duration.ofMillis(50);
    /** The longest any one call may take before it counts as hung. */
    private static final Duration CALL_DEADLINE = Duration.ofSeconds(10);
    private static final String LOCK = "modelled";
    private static final String ITEM = "fenced-item";

    /**
     * How a stage is modelled.
     *
     * @param stage     the stage
     * @param claims    what it claims: only those are checked
     * @param lease     the watchdog timeout (and default lease)
     * @param readWrite whether the lock has a read side
     * @param fenced    whether holds carry tokens
     */
    public record Setup(Stage stage, Set<Guarantee> claims, Duration lease, boolean readWrite, boolean fenced) {

        /** The setup of {@code stage} with a short lease, as its own client says it is. */
        public static Setup of(Stage stage) {
            return new Setup(stage, stage.claims(), Duration.ofMillis(600), stage.readWrite(), stage.fenced());
        }
    }

    /**
     * What a run found.
     *
     * @param steps     the history played
     * @param played    how many steps ran before a violation (all, when none)
     * @param violation the first broken rule, if any
     * @param timeline  the steps and their outcomes as text, then the timeline of clients and Redis
     */
    public record Result(List<Step> steps, int played, Optional<Violation> violation, String timeline) {
    }

    private final Setup setup;
    private final ScenarioContext context;
    private final History history;
    private final ReferenceModel model;
    private final Slot[] slots = new Slot[CLIENTS];
    private final ExecutorService[][] ownerExecutors = new ExecutorService[CLIENTS][THREADS];
    private final Thread[][] ownerThreads = new Thread[CLIENTS][THREADS];
    private final ConcurrentLinkedQueue<Told> told = new ConcurrentLinkedQueue<>();
    private final List<String> log = new ArrayList<>();
    /** Lock calls left waiting in the background by {@link Step.Kind#CONTEND}, per owner. */
    private final Future<?>[][] pending = new Future<?>[CLIENTS][THREADS];
    private final Calls.Attempt[][] pendingAttempts = new Calls.Attempt[CLIENTS][THREADS];
    private RedisStock stock;
    private long fence;

    /** A client slot: its links stay, its client is replaced on close or crash. */
    private static final class Slot {
        List<FaultyLink> links;
        List<RedisClient> redis;
        Locks locks;
        DistLock lock;
        int generation;
    }

    /** A loss signal, heard by the listener of one client generation. */
    private record Told(int slot, int generation, long threadId, Side side, long at) {
    }

    private ModelRun(Setup setup, RedisFixture fixture) {
        this.setup = setup;
        this.context = new ScenarioContext(setup.stage(), fixture);
        this.history = context.history();
        this.model = new ReferenceModel(setup, c -> {
            String[] fields = new String[THREADS];
            for (int t = 0; t < THREADS; t++) {
                fields[t] = slots[c].locks.clientId() + ":" + ownerThreads[c][t].getId();
            }
            return fields;
        });
    }

    /** Plays {@code steps} of {@code setup}'s stage on fresh nodes of {@code fixture}. */
    public static Result play(Setup setup, RedisFixture fixture, List<Step> steps) {
        ModelRun run = new ModelRun(setup, fixture);
        try {
            return run.play(steps);
        } finally {
            run.close();
        }
    }

    private Result play(List<Step> steps) {
        start();
        int played = 0;
        Optional<Violation> violation = Optional.empty();
        for (Step step : steps) {
            played++;
            violation = execute(step).or(this::check);
            if (violation.isPresent()) {
                break;
            }
        }
        if (violation.isEmpty()) {
            violation = finish();
        }
        violation.ifPresent(v -> log.add("VIOLATION " + v));
        String timeline = String.join("\n", log) + "\n\n" + Timeline.render(history);
        return new Result(steps, played, violation, timeline);
    }

    private void start() {
        List<RedisNode> nodes = context.nodes();
        if (setup.fenced()) {
            stock = new RedisStock(context.startNode(NodeConfig.defaults()).newClient());
            stock.stock(ITEM, 100);
        }
        for (int c = 0; c < CLIENTS; c++) {
            for (int t = 0; t < THREADS; t++) {
                String name = "model-owner-" + Step.ownerName(c, t);
                ownerExecutors[c][t] = Executors.newSingleThreadExecutor(task -> {
                    Thread thread = new Thread(task, name);
                    thread.setDaemon(true);
                    return thread;
                });
                int client = c;
                int thread = t;
                call(c, t, () -> ownerThreads[client][thread] = Thread.currentThread(), CALL_DEADLINE);
            }
            slots[c] = new Slot();
            slots[c].links = nodes.stream().map(context::link).toList();
            open(c);
        }
    }

    /** A new client, a new identity, in slot {@code c}, behind the slot's links. */
    private void open(int c) {
        Slot slot = slots[c];
        slot.generation++;
        slot.redis = slot.links.stream().map(link -> RedisClient.builder().hostAndPort(link.address())
                .clientConfig(context.nodes().get(0).security().clientConfig(SOCKET_TIMEOUT).build()).build()).toList();
        LockOptions options = Stage.leaseOptions(setup.lease()).withSpinInterval(SPIN);
        slot.locks = setup.stage().open(slot.redis, options);
        slot.lock = slot.locks.get(LOCK);
        history.client(clientName(c), slot.locks.clientId());
        int generation = slot.generation;
        slot.lock.onLeaseLost(loss -> told.add(new Told(c, generation, loss.threadId(), Side.WRITE, System.nanoTime())));
        if (setup.readWrite()) {
            ((ReadWriteDistLock) slot.lock).readLock().onLeaseLost(
                    loss -> told.add(new Told(c, generation, loss.threadId(), Side.READ, System.nanoTime())));
        }
    }

    private void closeClient(int c) {
        Slot slot = slots[c];
        slot.locks.close();
        slot.redis.forEach(RedisClient::close);
    }

    private DistLock side(int c, Side side) {
        return side == Side.READ ? ((ReadWriteDistLock) slots[c].lock).readLock() : slots[c].lock;
    }

    // ---- steps -----------------------------------------------------------------------------

    private Optional<Violation> execute(Step step) {
        String actor = actor(step);
        boolean ownersCall = switch (step.kind()) {
            case CLOSE, CRASH, STALL, DROP_CONNECTIONS, WAIT -> false;
            default -> true;
        };
        if (ownersCall) {
            // The owner's thread runs one call at a time: a call left waiting ends first.
            Optional<Violation> waited = resolve(step.client(), step.thread());
            if (waited.isPresent()) {
                return waited;
            }
        }
        long now = System.nanoTime();
        return switch (step.kind()) {
            case LOCK, TRY_LOCK, TRY_LOCK_WAIT, TRY_LOCK_LEASE, INTERRUPT -> Calls.acquire(this, step, actor);
            case CONTEND -> {
                pendingAttempts[step.client()][step.thread()] = Calls.attempt(this, step);
                model.owner(step.client(), step.thread(), step.side()).inFlight = true;
                pending[step.client()][step.thread()] = Calls.contend(this, step);
                note(actor, Kind.NOTE, step.toString());
                yield Optional.empty();
            }
            case UNLOCK -> Calls.unlock(this, step, actor);
            case FORCE_UNLOCK -> Calls.forceUnlock(this, step, actor);
            case FENCED_WRITE -> Calls.fencedWrite(this, step, actor);
            case CLOSE, CRASH -> {
                if (step.kind() == Step.Kind.CRASH) {
                    slots[step.client()].links.forEach(FaultyLink::blackhole);
                }
                closeClient(step.client());
                slots[step.client()].links.forEach(FaultyLink::heal);
                model.clientLost(step.client(), now, model.leaseNanos());
                Optional<Violation> waiter = endedWithClient(step.client());
                if (waiter.isPresent()) {
                    yield waiter;
                }
                open(step.client());
                note(clientName(step.client()), Kind.CRASH, step.toString());
                yield Optional.empty();
            }
            case STALL -> {
                slots[step.client()].links.forEach(FaultyLink::blackhole);
                note(clientName(step.client()), Kind.FAULT, step.toString());
                sleep(step.millis());
                slots[step.client()].links.forEach(FaultyLink::heal);
                if (step.millis() >= setup.lease().toMillis()) {
                    // As after a forceUnlock, an acquisition still under way may be granted after the stall: no victim.
                    List<int[]> victims = holders(step.client()).stream()
                            .filter(v -> !model.owner(v[0], v[1], Side.values()[v[2]]).inFlight).toList();
                    victims.forEach(v -> model.lost(v[0], v[1], Side.values()[v[2]], System.nanoTime(), SLACK.toNanos()));
                    model.shake(step.client(), System.nanoTime());
                    yield awaitTold(victims, "stalled past its lease");
                }
                model.shake(step.client(), System.nanoTime());
                yield Optional.empty();
            }
            case DROP_CONNECTIONS -> {
                context.nodes().forEach(node -> {
                    node.killClients("normal");
                    node.killClients("pubsub");
                });
                for (int c = 0; c < CLIENTS; c++) {
                    model.shake(c, now);
                }
                note(History.REDIS, Kind.FAULT, step.toString());
                yield Optional.empty();
            }
            case WAIT -> {
                sleep(step.millis());
                yield Optional.empty();
            }
        };
    }

    /** The owners of client slot {@code c} (or of every slot, for -1) that may hold a side: {client, thread, side}. */
    List<int[]> holders(int c) {
        List<int[]> found = new ArrayList<>();
        for (int client = 0; client < CLIENTS; client++) {
            for (int t = 0; t < THREADS; t++) {
                for (Side side : model.sides()) {
                    if ((c < 0 || c == client) && model.owner(client, t, side).mayHold()) {
                        found.add(new int[] {client, t, side.ordinal()});
                    }
                }
            }
        }
        return found;
    }

    /**
     * Ends owner (c, t)'s call left waiting, if any, and hands its outcome to the model; it may
     * take no longer than its wait and {@link #CALL_DEADLINE}.
     */
    private Optional<Violation> resolve(int c, int t) {
        Future<?> call = pending[c][t];
        if (call == null) {
            return Optional.empty();
        }
        Calls.Attempt attempt = pendingAttempts[c][t];
        pending[c][t] = null;
        Object outcome = await(call, CALL_DEADLINE.plusMillis(attempt.step().millis()));
        return Calls.outcome(this, attempt, actor(attempt.step()), outcome);
    }

    /** A closed client's waiters must return (their client is gone, so their outcome no longer counts). */
    private Optional<Violation> endedWithClient(int c) {
        for (int t = 0; t < THREADS; t++) {
            Future<?> call = pending[c][t];
            if (call == null) {
                continue;
            }
            Step step = pendingAttempts[c][t].step();
            pending[c][t] = null;
            model.owner(c, t, step.side()).inFlight = false;
            Object outcome = await(call, CALL_DEADLINE);
            note(actor(step), Kind.NOTE, step + " -> " + (outcome instanceof Throwable e ? e.getClass().getSimpleName()
                    : outcome) + " (its client was closed)");
            if (outcome instanceof Hung) {
                return Optional.of(new Violation("hung", step + " still waits " + CALL_DEADLINE.toMillis()
                        + " ms after its client was closed"));
            }
        }
        return Optional.empty();
    }

    /** Each of {@code victims} lost its hold: its lock must stop believing it holds within one lease. */
    Optional<Violation> awaitTold(List<int[]> victims, String why) {
        long deadline = System.nanoTime() + model.leaseNanos();
        for (int[] v : victims) {
            if (pending[v[0]][v[1]] != null) {
                continue; // inside a lock call: its outcome settles it
            }
            DistLock lock = side(v[0], Side.values()[v[2]]);
            while (true) {
                Object held = call(v[0], v[1], lock::isHeldByCurrentThread, CALL_DEADLINE);
                if (Boolean.FALSE.equals(held)) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    return Optional.of(new Violation("not-told", Step.ownerName(v[0], v[1])
                            + ReferenceModel.sideName(Side.values()[v[2]]) + " " + why + ", and still believes it holds "
                            + model.leaseNanos() / 1_000_000 + " ms later"));
                }
                sleep(20);
            }
        }
        return Optional.empty();
    }

    // ---- checks ----------------------------------------------------------------------------

    private Optional<Violation> check() {
        for (int c = 0; c < CLIENTS; c++) {
            for (int t = 0; t < THREADS; t++) {
                Optional<Violation> waited = pending[c][t] != null && pending[c][t].isDone()
                        ? resolve(c, t) : Optional.empty();
                if (waited.isPresent()) {
                    return waited;
                }
            }
        }
        long now = System.nanoTime();
        model.advance(now);
        drainTold();
        int[][][] beliefs = new int[CLIENTS][THREADS][2];
        boolean[][][] held = new boolean[CLIENTS][THREADS][2];
        for (int c = 0; c < CLIENTS; c++) {
            for (int t = 0; t < THREADS; t++) {
                for (Side side : model.sides()) {
                    if (pending[c][t] != null) {
                        // Its thread is inside a lock call: what it believes is known when the call ends.
                        beliefs[c][t][side.ordinal()] = -1;
                        continue;
                    }
                    DistLock lock = side(c, side);
                    Object count = call(c, t, lock::holdCount, CALL_DEADLINE);
                    Object isHeld = call(c, t, lock::isHeldByCurrentThread, CALL_DEADLINE);
                    beliefs[c][t][side.ordinal()] = count instanceof Integer n ? n : -1;
                    held[c][t][side.ordinal()] = Boolean.TRUE.equals(isHeld);
                }
            }
        }
        RedisView redis = RedisView.read(context.nodes(), LOCK);
        List<Violation> broken = model.check(System.nanoTime(), beliefs, held, redis);
        return broken.stream().findFirst();
    }

    /** Hands the loss signals heard so far to the model (a signal of a replaced client is about nobody now). */
    void drainTold() {
        for (Told loss; (loss = told.poll()) != null; ) {
            int thread = threadSlot(loss.slot(), loss.threadId());
            if (loss.generation() == slots[loss.slot()].generation && thread >= 0) {
                model.told(loss.slot(), thread, loss.side(), loss.at());
            }
        }
    }

    /** Every owner unlocks what its lock says it holds; then every hold must leave Redis, and a fresh client get in. */
    private Optional<Violation> finish() {
        log.add("-- end: every owner unlocks what it holds, then the lock must be free within one lease");
        for (int c = 0; c < CLIENTS; c++) {
            for (int t = 0; t < THREADS; t++) {
                Optional<Violation> waited = resolve(c, t);
                if (waited.isPresent()) {
                    return waited;
                }
                for (Side side : model.sides()) {
                    for (int round = 0; round < 8; round++) {
                        Object count = call(c, t, side(c, side)::holdCount, CALL_DEADLINE);
                        if (!(count instanceof Integer n) || n == 0) {
                            break;
                        }
                        Step unlock = new Step(Step.Kind.UNLOCK, c, t, side, 0, WireFault.NONE);
                        Optional<Violation> broken = execute(unlock).or(this::check);
                        if (broken.isPresent()) {
                            return broken;
                        }
                    }
                }
            }
        }
        long deadline = System.nanoTime() + model.leaseNanos() * 2;
        Optional<Violation> last = check();
        while (System.nanoTime() < deadline && (last.isPresent() || !RedisView.read(context.nodes(), LOCK).anyFields().isEmpty())) {
            if (last.isPresent() && !last.get().rule().equals("stuck-hold")) {
                return last;
            }
            sleep(50);
            last = check();
        }
        if (last.isPresent()) {
            return last;
        }
        return Calls.probe(this, context.nodes(), setup, LOCK);
    }

    // ---- plumbing for Calls ----------------------------------------------------------------

    ReferenceModel model() {
        return model;
    }

    Setup setup() {
        return setup;
    }

    DistLock lockOf(int c, Side side) {
        return side(c, side);
    }

    List<FaultyLink> links(int c) {
        return slots[c].links;
    }

    Thread ownerThread(int c, int t) {
        return ownerThreads[c][t];
    }

    RedisStock stock() {
        return stock;
    }

    long fence() {
        return fence;
    }

    void fence(long token) {
        fence = token;
    }

    String item() {
        return ITEM;
    }

    /** Runs {@code body} on owner (c, t)'s thread: its value, the exception it threw, or {@link Hung}. */
    Object call(int c, int t, Callable<?> body, Duration deadline) {
        return await(submit(c, t, body), deadline);
    }

    Future<?> submit(int c, int t, Callable<?> body) {
        return ownerExecutors[c][t].submit(body);
    }

    static Object await(Future<?> future, Duration deadline) {
        try {
            return future.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            return new Hung(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    /** A call that did not return in time. */
    record Hung(Duration deadline) {
    }

    void note(String actor, Kind kind, String detail) {
        history.record(actor, kind, detail);
        log.add(String.format("%6d ms  %s", history.now() / 1_000_000, detail));
    }

    History history() {
        return history;
    }

    static String actor(Step step) {
        return clientName(step.client()) + "/" + (step.thread() + 1);
    }

    private static String clientName(int c) {
        return String.valueOf((char) ('A' + c));
    }

    private int threadSlot(int c, long threadId) {
        for (int t = 0; t < THREADS; t++) {
            if (ownerThreads[c][t].getId() == threadId) {
                return t;
            }
        }
        return -1;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void close() {
        for (int c = 0; c < CLIENTS; c++) {
            if (slots[c] != null && slots[c].locks != null) {
                try {
                    closeClient(c);
                } catch (RuntimeException e) {
                    // A client of a history that broke may fail to close; the nodes go anyway.
                }
            }
            for (int t = 0; t < THREADS; t++) {
                if (ownerExecutors[c][t] != null) {
                    ownerExecutors[c][t].shutdownNow();
                }
            }
        }
        context.close();
    }
}
