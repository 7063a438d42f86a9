package dev.lockstep.testkit.model;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fault.HeldSends;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The run's client slots. A slot keeps its {@link FaultyLink}s to the nodes and gets a new client
 * (a new identity) when its client is closed or crashes; the loss signals each client hears are
 * kept with its generation, since a replaced client's signal is about nobody now.
 */
final class ClientSlots {

    /** The clients' socket timeout: a lost reply costs this much. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofMillis(150);
    private static final Duration SPIN = Duration.ofMillis(50);

    private final ModelSetup setup;
    private final ScenarioContext context;
    private final OwnerThreads threads;
    private final Slot[] slots = new Slot[ModelSetup.CLIENTS];
    private final ConcurrentLinkedQueue<Told> told = new ConcurrentLinkedQueue<>();
    private final HoldSlots holds = new HoldSlots();

    /** A client slot: its links stay, its client is replaced on close or crash. */
    private static final class Slot {
        List<FaultyLink> links;
        /** Per node, a client whose watchdog's next command can be held back ({@link Step.WireFault#RENEWAL_HELD}). */
        List<HeldSends> redis;
        Locks locks;
        DistLock lock;
        /** The group over the modelled name and {@link ModelSetup#OTHER}, on a lock over several names; else null. */
        DistLock group;
        int generation;
    }

    /** A loss signal, heard by the listener of one client generation, of a loss at {@code at} (nanoTime). */
    private record Told(int slot, int generation, long threadId, Side side, long at) {
    }

    /** The slots of a run of {@code setup} on {@code context}'s nodes, whose owners run on {@code threads}. */
    ClientSlots(ModelSetup setup, ScenarioContext context, OwnerThreads threads) {
        this.setup = setup;
        this.context = context;
        this.threads = threads;
    }

    /** Starts every slot: its owner threads, its links to {@code nodes}, its first client. */
    void start(List<RedisNode> nodes) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            threads.start(c);
            slots[c] = new Slot();
            slots[c].links = nodes.stream().map(context::link).toList();
            open(c);
        }
    }

    /** A new client, a new identity, in slot {@code c}, behind the slot's links. */
    void open(int c) {
        Slot slot = slots[c];
        slot.generation++;
        slot.redis = slot.links.stream().map(link -> HeldSends.to(link.address(),
                context.nodes().get(0).security().clientConfig(SOCKET_TIMEOUT).build())).toList();
        LockOptions options = Stage.leaseOptions(setup.lease()).withSpinInterval(SPIN);
        slot.locks = setup.stage().open(slot.redis, options);
        slot.lock = slot.locks.get(ModelSetup.LOCK);
        context.history().client(Step.clientName(c), slot.locks.clientId());
        int generation = slot.generation;
        slot.lock.onLeaseLost(loss -> told.add(new Told(c, generation, loss.threadId(), Side.WRITE, lostAt(loss))));
        if (setup.readWrite()) {
            ((ReadWriteDistLock) slot.lock).readLock().onLeaseLost(
                    loss -> told.add(new Told(c, generation, loss.threadId(), Side.READ, lostAt(loss))));
        }
        if (setup.severalNames()) {
            slot.group = ((CompositeLocks) slot.locks).getAll(ModelSetup.LOCK, ModelSetup.OTHER);
            slot.group.onLeaseLost(loss -> told.add(new Told(c, generation, loss.threadId(), Side.GROUP, lostAt(loss))));
        }
    }

    /**
     * When (nanoTime) {@code loss} happened, by its own {@code lostAt}: a signal may come late (a lease
     * clock ticks once a second), after the owner took the lock anew, and must not end the new hold.
     */
    private static long lostAt(LeaseLoss loss) {
        return System.nanoTime() - Math.max(0, Duration.between(loss.lostAt(), Instant.now()).toNanos());
    }

    /** Closes slot {@code c}'s client and its connections. */
    void close(int c) {
        Slot slot = slots[c];
        slot.locks.close();
        slot.redis.forEach(HeldSends::close);
    }

    /** Closes slot {@code c}'s client if it was opened; a client of a history that broke may fail to close. */
    void closeQuietly(int c) {
        if (slots[c] != null && slots[c].locks != null) {
            try {
                close(c);
            } catch (RuntimeException e) {
                // The nodes go anyway.
            }
        }
    }

    /** Slot {@code c}'s lock, on {@code side}. */
    DistLock lock(int c, Side side) {
        return switch (side) {
            case READ -> ((ReadWriteDistLock) slots[c].lock).readLock();
            case GROUP -> slots[c].group;
            case WRITE -> slots[c].lock;
        };
    }

    /** Slot {@code c}'s links to the nodes. */
    List<FaultyLink> links(int c) {
        return slots[c].links;
    }

    /** Slot {@code c}'s client of its first node, whose sends a step may hold back. */
    HeldSends sends(int c) {
        return slots[c].redis.get(0);
    }

    /** The hold handles of every slot. */
    HoldSlots holds() {
        return holds;
    }

    /** The run's Redis nodes. */
    List<RedisNode> nodes() {
        return context.nodes();
    }

    /** Slot {@code c}'s client's identity. */
    String clientId(int c) {
        return slots[c].locks.clientId();
    }

    /**
     * The Redis fields of slot {@code c}'s owners, by owner slot: {@code clientId:threadId} for a
     * thread, {@code clientId:-N} for a handle.
     */
    String[] fields(int c) {
        String[] fields = new String[ModelSetup.OWNERS];
        for (int t = 0; t < ModelSetup.OWNERS; t++) {
            fields[t] = Step.isHandle(t) ? holds.field(c, t) : clientId(c) + ":" + threads.thread(c, t).getId();
        }
        return fields;
    }

    /** Hands the loss signals heard so far to {@code model}, but those of replaced clients. */
    void drainTold(ReferenceModel model) {
        for (Told loss; (loss = told.poll()) != null; ) {
            int owner = loss.threadId() < 0 ? holds.ownerSlot(loss.slot(), loss.threadId())
                    : threads.threadSlot(loss.slot(), loss.threadId());
            if (loss.generation() == slots[loss.slot()].generation && owner >= 0) {
                if (Step.isHandle(owner)) {
                    holds.get(loss.slot(), owner).lockToldAt = loss.at();
                }
                model.losses().told(loss.slot(), owner, loss.side(), loss.at());
            }
        }
    }
}
