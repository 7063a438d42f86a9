package dev.lockstep.v5.internal;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The release channels a client's waiters want, by name, and the one lock that guards them and
 * every connection's subscription state. A lock rather than a monitor: its holders write SUBSCRIBE
 * and UNSUBSCRIBE (the heartbeat's probe too) to sockets, and a virtual thread blocked in a socket
 * write while it holds a monitor pins its carrier thread on JDK 21 to 23.
 *
 * <p>Who owns what: this class the wanted channels; each {@link NodeSubscription} its connection
 * and what it asked Redis for; each {@link ReleaseChannel} its waiters' turn and wake-ups.
 */
final class WantedChannels {

    private final ReentrantLock guard = new ReentrantLock();
    private final Map<String, ReleaseChannel> byName = new HashMap<>();
    private final int nodes;
    private boolean closed;

    /** Channels subscribed on {@code nodes} nodes each. */
    WantedChannels(int nodes) {
        this.nodes = nodes;
    }

    /** The lock over the channels and the connections' state. */
    ReentrantLock guard() {
        return guard;
    }

    /** One more waiter on {@code name}: its channel, new if this is the first. With the guard held. */
    ReleaseChannel join(String name) {
        if (closed) {
            throw new IllegalStateException("the subscriber is closed");
        }
        ReleaseChannel channel = byName.computeIfAbsent(name, n -> new ReleaseChannel(n, nodes));
        channel.users++;
        return channel;
    }

    /** One waiter fewer on {@code channel}: true when it was the last, and the channel is no longer wanted. With the guard held. */
    boolean leave(ReleaseChannel channel) {
        if (--channel.users > 0) {
            return false;
        }
        byName.remove(channel.name);
        return true;
    }

    /** The channel called {@code name}, or null when nobody waits on it. With the guard held. */
    ReleaseChannel get(String name) {
        return byName.get(name);
    }

    /** The names wanted now. With the guard held. */
    Set<String> names() {
        return byName.keySet();
    }

    /** The channels wanted now. With the guard held. */
    Collection<ReleaseChannel> all() {
        return byName.values();
    }

    /** Nothing is wanted any more, and nobody may join. With the guard held. */
    void close() {
        closed = true;
        byName.clear();
    }
}
