package dev.lockstep.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

/**
 * Curator's mutex with what the course's lock needs in sight: the calling thread's lock node,
 * whose creation zxid is its token, and how many holds each thread has (Curator counts re-entries
 * too, but privately). Each node stores its client's id, so whoever reads the lock's nodes can tell
 * whose they are.
 */
final class TokenMutex extends InterProcessMutex {

    private final Map<Long, Integer> holds = new ConcurrentHashMap<>();
    /** Threads whose hold ended with the session: Curator still counts them, this client no longer believes in them. */
    private final Set<Long> lost = ConcurrentHashMap.newKeySet();
    private final byte[] clientId;

    TokenMutex(CuratorFramework curator, String path, String clientId) {
        super(curator, path);
        this.clientId = clientId.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected byte[] getLockNodeBytes() {
        return clientId.clone();
    }

    /** Takes the mutex, waiting up to {@code waitMillis} ({@code -1}: for ever), and counts the hold. */
    boolean take(long waitMillis) throws Exception {
        boolean taken;
        if (waitMillis < 0) {
            acquire();
            taken = true;
        } else {
            taken = acquire(waitMillis, TimeUnit.MILLISECONDS);
        }
        if (taken && holds.merge(Thread.currentThread().getId(), 1, Integer::sum) == 1) {
            lost.remove(Thread.currentThread().getId());
        }
        return taken;
    }

    /** Ends one hold of the calling thread; Curator refuses a thread that holds none. */
    void give() throws Exception {
        try {
            release();
        } finally {
            long thread = Thread.currentThread().getId();
            if (holds.computeIfPresent(thread, (id, count) -> count > 1 ? count - 1 : null) == null) {
                lost.remove(thread);
            }
        }
    }

    /** The session ended, and every node with it: no hold counts as held any more. */
    void lose() {
        lost.addAll(holds.keySet());
    }

    /** Whether the calling thread holds the mutex, and its session has not ended since it took it. */
    boolean heldByCurrentThread() {
        return isOwnedByCurrentThread() && !lost.contains(Thread.currentThread().getId());
    }

    /** The calling thread's holds. */
    int holdCount() {
        return heldByCurrentThread() ? holds.getOrDefault(Thread.currentThread().getId(), 0) : 0;
    }

    /** The ids of the threads that hold the mutex. */
    Set<Long> holders() {
        return holds.keySet();
    }

    /** The calling thread's lock node, or null when it holds none. */
    String heldPath() {
        return getLockPath();
    }
}
