package dev.lockstep.zookeeper;

import dev.lockstep.FencedLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockHold;
import dev.lockstep.LockObserver;
import dev.lockstep.internal.Args;
import dev.lockstep.internal.Uninterruptibly;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * One lock on the ensemble: Curator's {@code InterProcessMutex} ({@link TokenMutex}), which is
 * reentrant and bound to the thread that took it. Its fencing token is the creation zxid of the
 * holder's node: the ensemble's leader numbers every write in one order that survives a change of
 * leader, and a waiter's node is created after its predecessor's, so each holder's token is greater
 * than every earlier holder's.
 */
public final class ZooKeeperLock implements FencedLock {

    private final String name;
    private final CuratorFramework curator;
    private final LockObserver observer;
    private final TokenMutex mutex;
    private final List<Consumer<LeaseLoss>> lossListeners = new CopyOnWriteArrayList<>();

    ZooKeeperLock(String name, CuratorFramework curator, String clientId, LockObserver observer) {
        this.name = name;
        this.curator = curator;
        this.observer = observer;
        this.mutex = new TokenMutex(curator, ZooKeeperLocks.ROOT + name, clientId);
    }

    @Override
    public String name() {
        return name;
    }

    /** Blocks until held, uninterruptibly; {@code lease} must be null: the session is the lease. */
    @Override
    public void lock(Duration lease) {
        noLease(lease);
        Uninterruptibly.run(() -> acquire(-1));
    }

    @Override
    public void lock() {
        lock(null);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquire(-1);
    }

    @Override
    public boolean tryLock() {
        try {
            return acquire(0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit must not be null");
        return acquire(Math.max(0, unit.toMillis(time)));
    }

    /** Waits up to {@code wait}; {@code lease} must be null: the session is the lease. */
    @Override
    public boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
        long waitMillis = Args.notNegative(wait, "wait").toMillis();
        noLease(lease);
        return acquire(waitMillis);
    }

    /** Unsupported: Curator's mutex is bound to the thread that took it, so no other thread could release a hold. */
    @Override
    public Optional<LockHold> tryAcquire(Duration wait, Duration lease) {
        throw new UnsupportedOperationException("lock '" + name + "': a Curator mutex belongs to the thread that took "
                + "it, so it cannot be handed off as a LockHold");
    }

    /** Unsupported: a hold has no lease of its own to extend; it lasts as long as the client's session. */
    @Override
    public void extend(Duration lease) {
        throw new UnsupportedOperationException("lock '" + name + "': a ZooKeeper lock lasts as long as its client's "
                + "session; there is no lease to extend");
    }

    @Override
    public void unlock() {
        try {
            mutex.give();
        } catch (IllegalMonitorStateException e) {
            throw new IllegalMonitorStateException("lock '" + name + "' is not held by this thread");
        } catch (Exception e) {
            // The node may still be there: the session's end will delete it, as it would after a crash.
            throw new EnsembleException(name, "unlock did not complete", e);
        }
        observer.released(name);
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return mutex.heldByCurrentThread();
    }

    @Override
    public boolean isLocked() {
        return !participants().isEmpty();
    }

    /** The session timeout while locked: a silent holder keeps its node no longer than that. */
    @Override
    public Duration remainingLease() {
        if (!isLocked()) {
            return Duration.ZERO;
        }
        try {
            return Duration.ofMillis(curator.getZookeeperClient().getZooKeeper().getSessionTimeout());
        } catch (Exception e) {
            throw new EnsembleException(name, "cannot read the session timeout", e);
        }
    }

    @Override
    public int holdCount() {
        return mutex.holdCount();
    }

    /** Deletes the holder's node, whoever holds it; the next waiter takes the lock. */
    @Override
    public boolean forceUnlock() {
        Collection<String> nodes = participants();
        if (nodes.isEmpty()) {
            return false;
        }
        try {
            curator.delete().forPath(nodes.iterator().next());
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        } catch (Exception e) {
            throw new EnsembleException(name, "forceUnlock did not complete", e);
        }
    }

    @Override
    public void onLeaseLost(Consumer<LeaseLoss> listener) {
        lossListeners.add(Objects.requireNonNull(listener, "listener must not be null"));
    }

    /** The creation zxid of this thread's lock node. */
    @Override
    public long token() {
        String path = mutex.heldByCurrentThread() ? mutex.heldPath() : null;
        if (path == null) {
            throw new IllegalMonitorStateException("lock '" + name + "' is not held by this thread");
        }
        try {
            Stat stat = curator.checkExists().forPath(path);
            if (stat == null) {
                throw new IllegalStateException("lock '" + name + "': this thread's node is gone; its session ended");
            }
            return stat.getCzxid();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new EnsembleException(name, "cannot read the token", e);
        }
    }

    /** Tells the listeners of every thread that holds this lock that the session, and so the hold, is gone. */
    void sessionLost(Instant at) {
        mutex.lose();
        for (Long thread : mutex.holders()) {
            LeaseLoss loss = new LeaseLoss(name, thread, at, ZooKeeperLocks.SESSION_ENDED);
            observer.leaseLost(loss);
            lossListeners.forEach(listener -> listener.accept(loss));
        }
    }

    /** Takes the lock, waiting up to {@code waitMillis} ({@code -1}: for ever). */
    private boolean acquire(long waitMillis) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + name + "'");
        }
        long started = System.nanoTime();
        boolean taken;
        try {
            taken = mutex.take(waitMillis);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new EnsembleException(name, "acquire did not complete", e);
        }
        long waited = System.nanoTime() - started;
        if (taken) {
            observer.acquired(name, waited);
        } else {
            observer.timedOut(name, waited);
        }
        return taken;
    }

    private Collection<String> participants() {
        try {
            return mutex.getParticipantNodes();
        } catch (Exception e) {
            throw new EnsembleException(name, "cannot list the lock's nodes", e);
        }
    }

    private void noLease(Duration lease) {
        if (lease != null) {
            throw new IllegalArgumentException("lease must be null: lock '" + name + "' lasts as long as its client's "
                    + "ZooKeeper session (the session timeout is the lease), was " + lease);
        }
    }
}
