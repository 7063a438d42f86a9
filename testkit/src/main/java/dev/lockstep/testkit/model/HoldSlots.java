package dev.lockstep.testkit.model;

import dev.lockstep.LockHold;
import dev.lockstep.testkit.model.Step.Side;

/**
 * The run's hold handles ({@code tryAcquire}), {@link ModelSetup#HANDLES} slots per client. A slot
 * keeps its handle until a step releases, closes or drops it; a handle of a closed client stays in
 * its slot (a user may still call it) until then. Each handle's {@code onLost} listener mentions the
 * handle, as a user's would, so a listener that keeps a dropped handle alive is found.
 */
final class HoldSlots {

    /** One handle in its slot, with what it was told. */
    static final class Held {
        /** The handle; null once a step let it go. */
        LockHold hold;
        /** The handle's owner field in Redis, without a side suffix: {@code clientId:-N}. */
        final String field;
        /** The side it holds. */
        final Side side;
        /** Whether the client that gave it out was closed since. */
        boolean clientClosed;
        /** When (nanoTime) its explicit lease runs out by its own clock, 0 for a renewed hold: its isValid() turns then. */
        long leaseEnd;
        /** When (nanoTime) its {@code onLost} listeners were told, 0 before. */
        volatile long toldAt;
        /** What its {@code onLost} listener heard: the handle and the loss's reason. */
        volatile String lossNote;
        /** When (nanoTime) its lock's {@code onLeaseLost} listeners heard of its loss, 0 before. */
        volatile long lockToldAt;

        private Held(LockHold hold, String field, Side side) {
            this.hold = hold;
            this.field = field;
            this.side = side;
        }
    }

    private final Held[][] slots = new Held[ModelSetup.CLIENTS][ModelSetup.HANDLES];

    /** Puts {@code hold}, taken by client {@code clientId} on {@code side}, into owner slot (c, t); listens for its loss. */
    Held put(int c, int t, String clientId, LockHold hold, Side side) {
        Held held = new Held(hold, clientId + ":" + HoldOwners.ownerNumber(hold), side);
        slots[c][t - ModelSetup.THREADS] = held;
        // The listener mentions its handle, as a user's does when it logs which hold was lost.
        LockHold mentioned = hold;
        hold.onLost(loss -> {
            held.lossNote = mentioned + ": " + loss.reason();
            held.toldAt = System.nanoTime();
        });
        return held;
    }

    /** The handle in owner slot (c, t), or null when the slot is empty. */
    Held get(int c, int t) {
        return slots[c][t - ModelSetup.THREADS];
    }

    /** Empties owner slot (c, t): its handle was released, closed or dropped. */
    void clear(int c, int t) {
        slots[c][t - ModelSetup.THREADS] = null;
    }

    /** Client slot {@code c}'s client was closed: its handles stay, as handles of a closed client. */
    void clientClosed(int c) {
        for (Held held : slots[c]) {
            if (held != null) {
                held.clientClosed = true;
            }
        }
    }

    /** The owner slot of client slot {@code c}'s open handle whose owner number in Redis is {@code id}, or -1. */
    int ownerSlot(int c, long id) {
        for (int h = 0; h < ModelSetup.HANDLES; h++) {
            Held held = slots[c][h];
            if (held != null && !held.clientClosed && held.field.endsWith(":" + id)) {
                return ModelSetup.THREADS + h;
            }
        }
        return -1;
    }

    /** Owner slot (c, t)'s field without a side suffix, or one nobody has while the slot is empty. */
    String field(int c, int t) {
        Held held = get(c, t);
        return held != null ? held.field : "empty handle slot " + Step.ownerName(c, t);
    }
}
