package dev.lockstep.v6;

import dev.lockstep.internal.AbstractDistLock;
import dev.lockstep.internal.Args;
import dev.lockstep.internal.Lease;
import dev.lockstep.internal.LuaScript;
import dev.lockstep.internal.Patience;
import dev.lockstep.v3.internal.RedissonLayout;
import dev.lockstep.v4.internal.HoldTable;
import dev.lockstep.v4.internal.Unlock;
import dev.lockstep.v4.internal.Watchdog;
import dev.lockstep.v4.internal.WatchdogLock;
import dev.lockstep.v5.internal.AcquireLoop;
import dev.lockstep.v5.internal.Subscriber;
import dev.lockstep.v6.FanOut.Request;
import dev.lockstep.v6.FanOut.WhenLate;
import java.time.Duration;
import java.util.Comparator;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The stage-6 lock: stage 5's lock on every node at once. One acquisition sends the lock script
 * to all nodes in parallel and counts the grants; it holds when at least a quorum granted and
 * time is left: RedLock's validity, lease - elapsed - drift, with stage 4's drift allowance of
 * lease x 5% + 2 ms (wider than RedLock's 1%), so the round ends before the holder's deadline. Otherwise it undoes
 * its grants everywhere and tries again after a jittered pause (or sleeps on the release
 * channels until a holder lets go).
 *
 * <p>The watchdog renews on all nodes and counts a renewal only when a quorum renewed; when no
 * quorum renews within a lease, the holder is told it lost the lock.
 *
 * <p>Built from the earlier stages' parts: stage 4's {@link HoldTable} keeps the holds and owns the
 * release, stage 5's {@link AcquireLoop} waits; what is new is the {@link FanOut} and reading its
 * replies as {@link Votes}.
 */
final class QuorumLock extends AbstractDistLock {

    private static final LuaScript LOCK = LuaScript.load(QuorumLock.class, "lock.lua");
    private static final LuaScript UNLOCK = LuaScript.load(WatchdogLock.class, "unlock-counted.lua");
    private static final LuaScript UNDO = LuaScript.load(QuorumLock.class, "undo.lua");
    /** How many node timeouts of rounds without a quorum of answers an acquisition sits out before failing. */
    private static final int UNANSWERED_ROUNDS = 10;
    private static final LuaScript RENEW = LuaScript.load(RedissonLayout.class, "extend.lua");
    private static final LuaScript LEASE_LEFT = LuaScript.load(QuorumLock.class, "lease-left.lua");
    private static final LuaScript FORCE_UNLOCK = RedissonLayout.forceUnlockScript();

    private final QuorumLocks client;
    private final FanOut fanOut;
    private final HoldTable holds;
    private final String channel;

    QuorumLock(String name, QuorumLocks client) {
        super(name, client);
        this.channel = RedissonLayout.releaseChannel(name);
        this.client = client;
        this.fanOut = client.fanOut();
        this.holds = client.watchdog().holds(name, this::signalLeaseLost, this::owner);
    }

    /** No lease given: the watchdog's, renewed while a quorum renews. */
    @Override
    protected Duration defaultLease() {
        return options().watchdogTimeout();
    }

    @Override
    protected boolean tryAcquireOnce(Lease lease) {
        return tryAcquire(lease) == null;
    }

    /** One round on all nodes: null when held, else how many ms to sleep before the next round. */
    private Long tryAcquire(Lease lease) {
        long sent = System.nanoTime();
        String owner = threadOwner();
        int held = holds.depth();
        List<Reply> replies = fanOut.ask(new Request(owner, LOCK, List.of(key()),
                List.of(Long.toString(lease.millis()), owner, Integer.toString(held))), WhenLate.DROP);
        Votes votes = new Votes(replies, client.quorum());
        // RedLock's validity, lease - elapsed - drift, must be positive, with the drift of the holder's own deadline
        // (stage 4's 5% + 2 ms, wider than RedLock's 1%): a hold already past that deadline would be lost at once.
        if (votes.quorum(Reply::answeredNil) && System.nanoTime() < Watchdog.deadline(sent, lease)) {
            try {
                holds.acquired(sent, lease, () -> renew(owner, lease.millis()));
            } catch (IllegalStateException closed) {
                // The client closed while the round ran: nobody would renew or release these grants.
                undo(replies, owner, held);
                throw closed;
            }
            return null;
        }
        undo(replies, owner, held);
        List<Throwable> refusals = votes.refusals();
        if (refusals.size() > fanOut.size() - client.quorum()) {
            // Enough nodes answered no (an ACL without a command this lock needs) that no quorum can be reached.
            JedisDataException refused = new JedisDataException("refused on " + refusals.size() + " of "
                    + fanOut.size() + " nodes: " + refusals.get(0).getMessage(), refusals.get(0));
            refusals.stream().skip(1).forEach(refused::addSuppressed);
            throw refused;
        }
        if (!votes.quorum(Reply::answered)) {
            throw NoQuorumException.of("only " + votes.count(Reply::answered) + " of " + fanOut.size()
                    + " nodes answered within " + options().nodeTimeout().toMillis() + " ms", replies);
        }
        // One holder has a quorum: sleep until its release is announced, or its lease ends. Otherwise nobody holds
        // a quorum, and undoing a split is quiet, so no release would wake us: back off a random bit, so rivals do
        // not collide again, and try again.
        return votes.holderLease().orElseGet(this::backOff);
    }

    private long backOff() {
        return 1 + ThreadLocalRandom.current().nextLong(options().spinInterval().toMillis());
    }

    /**
     * Takes back what a failed round may have granted: the count goes back to {@code held} on nodes
     * that granted, and on silent ones unless this was a re-entry (the thread's next call writes its
     * count there anyway). A silent node gets its undo queued behind the request it has not answered,
     * and nobody waits for it. Quietly: announcing these non-releases would wake rivals into another
     * split round, and those into another, while the winner holds the lock.
     */
    private void undo(List<Reply> replies, String owner, int held) {
        List<Boolean> which = replies.stream().map(reply -> reply.answered() ? reply.answeredNil() : held == 0)
                .toList();
        fanOut.tell(which, new Request(owner, UNDO, List.of(key()), List.of(owner, Integer.toString(held))));
    }

    /** A renewal round: true when a quorum renewed, false when a quorum can no longer be ours; else unknown (throws). */
    private boolean renew(String owner, long leaseMillis) {
        List<Reply> replies = fanOut.ask(new Request(owner, RENEW, List.of(key()),
                List.of(Long.toString(leaseMillis), owner)), WhenLate.DROP);
        Votes votes = new Votes(replies, client.quorum());
        if (votes.quorum(r -> r.answeredEqual(1L))) {
            return true;
        }
        if (votes.blocking(r -> r.answeredEqual(0L))) {
            return false;
        }
        throw NoQuorumException.of("renewed on " + votes.count(r -> r.answeredEqual(1L)) + " of " + fanOut.size() + " nodes",
                replies);
    }

    /** A renewal round with the caller's lease: a quorum must set it, and the hold keeps that lease from now on. */
    @Override
    protected void extendHold(Lease lease) {
        String owner = threadOwner();
        holds.extend(lease, () -> renew(owner, lease.millis()), () -> fanOut.tell(Collections.nCopies(fanOut.size(), true),
                new Request(owner, UNLOCK, List.of(key(), channel), List.of(owner, RedissonLayout.RELEASED, "1"))));
    }

    @Override
    protected boolean acquire(Lease lease, long waitNanos) throws InterruptedException {
        checkNotInterrupted();
        Patience patience = patience(waitNanos);
        // A round too few nodes answered (a busy machine can make every node late at once) backs off and tries again.
        Subscriber.Attempt attempt = () -> patience.attempt(() -> ask("acquire", () -> tryAcquire(lease)), backOff());
        AcquireLoop loop = new AcquireLoop(name(), client.subscriber(), options().nodeTimeout(),
                this::isHeldByCurrentThread, () -> TimeUnit.MILLISECONDS.toNanos(Math.max(1, backOff())));
        return loop.run(channel, waitNanos, attempt, first -> attempt);
    }

    /** Rounds too few nodes answered are retried for ten node timeouts before Redis is taken to be down. */
    @Override
    protected Patience patience(long waitNanos) {
        return new Patience(waitNanos == 0 ? Duration.ZERO : options().nodeTimeout().multipliedBy(UNANSWERED_ROUNDS));
    }

    @Override
    protected void release() {
        // The count is kept here, and written to every node: with one node's key lost and another stalled,
        // the replies of an inner unlock could not tell it from the last one, and a late grant's extra
        // count on a node is put right by the next call.
        String owner = threadOwner();
        Votes votes = holds.release(new Unlock<Votes>() {
            @Override
            public Votes run(int held) {
                Request unlock = new Request(owner, UNLOCK, List.of(key(), channel),
                        List.of(owner, RedissonLayout.RELEASED, Integer.toString(held)));
                Votes votes = new Votes(fanOut.ask(unlock, WhenLate.SEND), client.quorum());
                if (held == 1 && !votes.quorum(Reply::answered)) {
                    // The last hold has ended whatever the nodes said: a node the unlock may not have reached gets
                    // it once more, so it soon stores what the owner believes, not for the rest of a lease.
                    fanOut.tell(votes.replies().stream().map(Reply::connectionBroke).toList(), unlock);
                }
                return votes;
            }

            /** A quorum answered, and no node had this owner's field. */
            @Override
            public boolean refused(Votes votes) {
                return votes.quorum(Reply::answered) && Reply.answers(votes.replies()).stream().noneMatch(Long.class::isInstance);
            }
        });
        if (!votes.quorum(Reply::answered)) {
            throw NoQuorumException.of("unlock reached only " + votes.count(Reply::answered) + " of "
                    + fanOut.size() + " nodes; the others let the lock expire with its lease", votes.replies());
        }
    }

    /** Local and instant: held from acquisition until the last unlock or the moment no quorum renewed. */
    @Override
    public boolean isHeldByCurrentThread() {
        return holds.isHeld();
    }

    /** Local and instant: this thread's count of holds, 0 once no quorum renewed. */
    @Override
    public int holdCount() {
        return holds.depth();
    }

    /** A quorum of nodes has the lock. */
    @Override
    public boolean isLocked() {
        return remainingLease().compareTo(Duration.ZERO) > 0;
    }

    /** The quorum-th longest PTTL: after it, fewer than a quorum of nodes still have the lock. */
    @Override
    public Duration remainingLease() {
        return ask("remainingLease", () -> {
            List<Reply> replies = fanOut.ask(new Request(threadOwner(), LEASE_LEFT, List.of(key()), List.of()),
                    WhenLate.DROP);
            List<Duration> leases = Reply.answers(replies).stream().map(pttl -> Args.remaining((Long) pttl))
                    .sorted(Comparator.reverseOrder()).toList();
            if (leases.size() < client.quorum()) {
                throw NoQuorumException.of("only " + leases.size() + " of " + fanOut.size() + " nodes answered", replies);
            }
            return leases.get(client.quorum() - 1);
        });
    }

    /** Deletes the lock on every node and announces the release on each; true when any node had it. */
    @Override
    public boolean forceUnlock() {
        return ask("forceUnlock", () -> {
            List<Reply> replies = fanOut.ask(new Request(threadOwner(), FORCE_UNLOCK, List.of(key(), channel),
                    List.of(RedissonLayout.RELEASED)), WhenLate.SEND);
            Votes votes = new Votes(replies, client.quorum());
            if (!votes.quorum(Reply::answered)) {
                throw NoQuorumException.of("force-unlock reached only " + votes.count(Reply::answered) + " of "
                        + fanOut.size() + " nodes; the others let the lock expire with its lease", replies);
            }
            return votes.count(r -> r.answeredEqual(1L)) > 0;
        });
    }
}
