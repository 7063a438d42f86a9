package dev.lockstep.testkit.fault;

import java.time.Duration;
import java.util.Collection;

/**
 * The faults a {@link FaultyLink} injects now: whether it drops everything or the replies, freezes
 * new subscribers, and how long it holds each chunk back. Read by every direction of every connection.
 */
final class LinkFaults {

    private volatile boolean blackholed;
    private volatile boolean losingReplies;
    private volatile boolean freezingNewSubscribers;
    private volatile Duration delay = Duration.ZERO;

    synchronized void blackhole() {
        blackholed = true;
    }

    synchronized void loseReplies() {
        losingReplies = true;
    }

    void freezeNewSubscribers() {
        freezingNewSubscribers = true;
    }

    /** Whether a connection that subscribes now is frozen at once. */
    boolean freezingNewSubscribers() {
        return freezingNewSubscribers;
    }

    void delay(Duration delay) {
        this.delay = delay;
    }

    Duration delay() {
        return delay;
    }

    /** Whether this chunk is lost; atomic with {@link #heal} so no hole goes unnoticed. */
    synchronized boolean dropped(Pipe pipe, boolean replies) {
        boolean lost = blackholed || (replies && losingReplies);
        if (lost) {
            pipe.lostBytes = true;
        }
        return lost;
    }

    /** No faults any more; of {@code pipes}, those that lost bytes are reset. */
    synchronized void heal(Collection<Pipe> pipes) {
        freezingNewSubscribers = false;
        blackholed = false;
        losingReplies = false;
        delay = Duration.ZERO;
        // A TCP stream with a hole in it never happens on a real network: the peers would either get
        // the bytes late (retransmission) or lose the connection. Forwarding again after a hole would
        // silently desync a replica (it keeps counting offsets over missing writes and never asks for
        // a resync), so such connections are reset: peers reconnect, and a replica PSYNCs what it lacks.
        pipes.stream().filter(pipe -> pipe.lostBytes).forEach(Pipe::close);
    }
}
