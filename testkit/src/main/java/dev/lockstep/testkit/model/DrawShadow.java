package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Side;

/**
 * The draw's rough shadow of who holds what, assuming every call succeeds: it steers the draw
 * toward holders (their unlocks, re-entries, extends), never judges. A handle slot stays taken
 * until its handle is released, closed or dropped, also when its client is closed.
 */
final class DrawShadow {

    /** Holds per owner, [client][owner slot][side]. */
    private final int[][][] holds = new int[ModelSetup.CLIENTS][ModelSetup.OWNERS][ModelSetup.SIDES];
    /** Handle slots with a handle in them, [client][owner slot]. */
    private final boolean[][] handles = new boolean[ModelSetup.CLIENTS][ModelSetup.OWNERS];

    /** How many holds owner (client, thread) has on {@code side}. */
    int holds(int client, int thread, Side side) {
        return holds[client][thread][side.ordinal()];
    }

    /** A lock call of the owner: it holds one more, if nothing the shadow knows of stands in its way. */
    void acquire(int client, int thread, Side side) {
        if (free(client, thread, side)) {
            holds[client][thread][side.ordinal()]++;
        }
    }

    /** An unlock of the owner: one hold less, if it had one. */
    void release(int client, int thread, Side side) {
        if (holds[client][thread][side.ordinal()] > 0) {
            holds[client][thread][side.ordinal()]--;
        }
    }

    /** Whether handle slot {@code slot} of {@code client} has a handle in it. */
    boolean hasHandle(int client, int slot) {
        return handles[client][slot];
    }

    /** A handle is taken into the slot: it holds, if it could. */
    void takeHandle(int client, int slot, Side side) {
        handles[client][slot] = true;
        acquire(client, slot, side);
    }

    /** The slot's handle is gone, and with it every hold it had. */
    void dropHandle(int client, int slot) {
        handles[client][slot] = false;
        holds[client][slot] = new int[ModelSetup.SIDES];
    }

    /** Every hold of {@code client}'s owners is gone (closed, crashed, stalled past the lease). */
    void clearClient(int client) {
        holds[client] = new int[ModelSetup.OWNERS][ModelSetup.SIDES];
    }

    /** Every hold is gone (a forceUnlock). */
    void clearAll() {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            clearClient(c);
        }
    }

    /** Whether {@code side} may be granted to this owner now: no other owner's hold excludes it, and it is no upgrade. */
    private boolean free(int client, int thread, Side side) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                if (c == client && t == thread) {
                    continue;
                }
                if (holds[c][t][Side.WRITE.ordinal()] > 0 || holds[c][t][Side.GROUP.ordinal()] > 0
                        || (side != Side.READ && holds[c][t][Side.READ.ordinal()] > 0)) {
                    return false;
                }
            }
        }
        return !(side == Side.WRITE && holds[client][thread][Side.READ.ordinal()] > 0
                && holds[client][thread][Side.WRITE.ordinal()] == 0);
    }
}
