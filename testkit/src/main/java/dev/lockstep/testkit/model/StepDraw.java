package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Kind;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Draws a history of steps from a seed, over the whole API and the fault catalogue. A rough shadow
 * of who holds what ({@link DrawShadow}) biases the draw toward what finds bugs: unlocks by
 * holders, re-entries, faults while someone holds. The shadow only steers; the
 * {@link ReferenceModel} judges.
 */
final class StepDraw {

    private final ModelSetup setup;
    private final Random random;
    private final DrawShadow shadow = new DrawShadow();

    private StepDraw(ModelSetup setup, long seed) {
        this.setup = setup;
        this.random = new Random(seed);
    }

    /** {@code count} steps drawn from {@code seed} for a lock set up as {@code setup}. */
    static List<Step> draw(ModelSetup setup, long seed, int count) {
        StepDraw draw = new StepDraw(setup, seed);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            steps.add(draw.next());
        }
        return steps;
    }

    private Step next() {
        int client = random.nextInt(ModelSetup.CLIENTS);
        int thread = random.nextInt(ModelSetup.THREADS);
        Side other = setup.readWrite() ? Side.READ : setup.severalNames() ? Side.GROUP : Side.WRITE;
        Side side = random.nextInt(5) < 2 ? other : Side.WRITE;
        if (random.nextInt(100) < 22) {
            return handleStep(client, ModelSetup.THREADS + random.nextInt(ModelSetup.HANDLES), side);
        }
        int roll = random.nextInt(100);
        if (roll < 33) {
            return acquire(client, thread, side);
        }
        if (roll < 39) {
            // A waiter beside the next steps: it may wake on a release, or be the queue a re-entry must not join.
            return new Step(Kind.CONTEND, client, thread, side, 300 + random.nextInt(1200), WireFault.NONE);
        }
        if (roll < 61) {
            return unlock(client, thread, side);
        }
        if (roll < 65) {
            shadow.clearAll();
            return new Step(Kind.FORCE_UNLOCK, client, thread, side, 0, WireFault.NONE);
        }
        if (roll < 70) {
            return interrupt(client, thread, side);
        }
        if (roll < 73) {
            shadow.clearClient(client);
            return new Step(Kind.CLOSE, client, 0, Side.WRITE, 0, WireFault.NONE);
        }
        if (roll < 76) {
            shadow.clearClient(client);
            return new Step(Kind.CRASH, client, 0, Side.WRITE, 0, WireFault.NONE);
        }
        if (roll < 81) {
            boolean pastLease = random.nextBoolean();
            long millis = pastLease ? setup.lease().toMillis() * 3 / 2 : setup.lease().toMillis() / 5;
            if (pastLease) {
                shadow.clearClient(client);
            }
            return new Step(Kind.STALL, client, 0, Side.WRITE, millis, WireFault.NONE);
        }
        if (roll < 85) {
            return new Step(Kind.DROP_CONNECTIONS, 0, 0, Side.WRITE, 0, WireFault.NONE);
        }
        if (roll < 89 && setup.fenced()) {
            int writer = random.nextBoolean() ? thread : ModelSetup.THREADS + random.nextInt(ModelSetup.HANDLES);
            return new Step(Kind.FENCED_WRITE, client, writer, Side.WRITE, 0, WireFault.NONE);
        }
        if (roll < 95) {
            return extend(client, thread, side);
        }
        return new Step(Kind.WAIT, 0, 0, Side.WRITE, 50 + random.nextInt((int) setup.lease().toMillis()), WireFault.NONE);
    }

    private Step acquire(int client, int thread, Side side) {
        boolean holder = shadow.holds(client, thread, Side.WRITE) + shadow.holds(client, thread, Side.READ) > 0;
        // A holder re-enters on the side it holds (a reader asking for the write side is an upgrade, refused).
        if (holder && setup.readWrite()) {
            side = shadow.holds(client, thread, Side.READ) > 0 && shadow.holds(client, thread, Side.WRITE) == 0
                    ? Side.READ : side;
        }
        int variant = random.nextInt(100);
        Kind kind;
        long millis = 0;
        if (variant < 27) {
            kind = Kind.TRY_LOCK;
        } else if (variant < 47) {
            kind = Kind.TRY_LOCK_WAIT;
            millis = 100 + random.nextInt(500);
        } else if (variant < 55) {
            kind = Kind.TRY_LOCK_UNIT;
            millis = 100 + random.nextInt(500);
        } else if (variant < 78) {
            kind = Kind.LOCK;
            millis = 200;
        } else {
            // A fixed lease only on a first hold: mixing a fixed lease into a watchdog hold is its own topic.
            kind = holder ? Kind.TRY_LOCK : variant < 90 ? Kind.TRY_LOCK_LEASE : Kind.LOCK_LEASE;
            // Up to twice the watchdog's: a longer lease must survive renewals of other locks on the name.
            millis = holder ? 0 : 200 + random.nextInt(2 * (int) setup.lease().toMillis());
        }
        WireFault fault = WireFault.NONE;
        int faulty = random.nextInt(100);
        // A lost reply on a re-entry leaves a count its owner does not know of: drawn more often than on a first hold.
        if (faulty < (holder ? 25 : 10)) {
            fault = WireFault.LOST_REPLY;
        } else if (faulty < 35 && holder) {
            // A blip while a holder re-enters with time to retry: its first attempt fails, the retry must not wait on itself.
            fault = WireFault.BLIP;
            kind = Kind.TRY_LOCK_WAIT;
            millis = ModelSetup.BLIP.toMillis() + 600;
        }
        shadow.acquire(client, thread, side);
        return new Step(kind, client, thread, side, millis, fault);
    }

    private Step unlock(int client, int thread, Side side) {
        if (random.nextInt(100) < 85) {
            for (int c = 0; c < ModelSetup.CLIENTS; c++) {
                for (int t = 0; t < ModelSetup.THREADS; t++) {
                    for (Side s : Side.values()) {
                        if (shadow.holds(c, t, s) > 0 && random.nextBoolean()) {
                            client = c;
                            thread = t;
                            side = s;
                        }
                    }
                }
            }
        }
        shadow.release(client, thread, side);
        WireFault fault = random.nextInt(100) < 12 ? WireFault.LOST_REPLY : WireFault.NONE;
        return new Step(Kind.UNLOCK, client, thread, side, 0, fault);
    }

    /**
     * A handle's step: {@code tryAcquire} into an empty slot, else a call on the handle in it
     * (extend, release, close) or its drop.
     */
    private Step handleStep(int client, int slot, Side side) {
        if (!shadow.hasHandle(client, slot)) {
            shadow.takeHandle(client, slot, side);
            int faulty = random.nextInt(100);
            WireFault fault = faulty < 10 ? WireFault.LOST_REPLY : faulty < 18 ? WireFault.BLIP : WireFault.NONE;
            if (fault != WireFault.BLIP && random.nextInt(100) < 40) {
                long lease = 200 + random.nextInt((int) setup.lease().toMillis());
                return new Step(Kind.TRY_ACQUIRE_LEASE, client, slot, side, lease, fault);
            }
            long wait = fault == WireFault.BLIP ? ModelSetup.BLIP.toMillis() + 600 : random.nextInt(500);
            return new Step(Kind.TRY_ACQUIRE, client, slot, side, wait, fault);
        }
        int variant = random.nextInt(100);
        if (variant < 40) {
            return new Step(Kind.HOLD_EXTEND, client, slot, side, extendLease(), extendFault());
        }
        shadow.dropHandle(client, slot);
        if (variant < 65) {
            WireFault fault = random.nextInt(100) < 12 ? WireFault.LOST_REPLY : WireFault.NONE;
            return new Step(Kind.HOLD_RELEASE, client, slot, side, 0, fault);
        }
        return new Step(variant < 85 ? Kind.HOLD_CLOSE : Kind.HOLD_DROP, client, slot, side, 0, WireFault.NONE);
    }

    /** An extend's lease: refused at the call (negative, zero or under 10 ms), twice the watchdog's, its own, or shorter. */
    private long extendLease() {
        long lease = setup.lease().toMillis();
        int variant = random.nextInt(10);
        long shortest = Extend.SHORTEST_LEASE_MILLIS;
        return variant < 2 ? random.nextInt((int) shortest * 2) - shortest : variant < 4 ? lease * 2
                : variant < 6 ? lease : lease / 4 + random.nextInt((int) lease / 2);
    }

    /** An extend, mostly by a holding thread: longer, shorter, the watchdog's own lease, or one refused at the call. */
    private Step extend(int client, int thread, Side side) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                for (Side s : Side.values()) {
                    if (shadow.holds(c, t, s) > 0 && random.nextInt(4) > 0) {
                        client = c;
                        thread = t;
                        side = s;
                    }
                }
            }
        }
        return new Step(Kind.EXTEND, client, thread, side, extendLease(), extendFault());
    }

    /**
     * An extend's wire fault: a lost reply, or (where the client's own executor sends every command,
     * not a quorum's) a renewal held on its way, which must not land after the extend.
     */
    private WireFault extendFault() {
        int faulty = random.nextInt(100);
        return faulty < 15 ? WireFault.LOST_REPLY
                : faulty < 40 && !setup.stage().multiNode() ? WireFault.RENEWAL_HELD : WireFault.NONE;
    }

    private Step interrupt(int client, int thread, Side side) {
        long millis = 30 + random.nextInt(150);
        shadow.acquire(client, thread, side);
        return new Step(Kind.INTERRUPT, client, thread, side, millis, WireFault.NONE);
    }
}
