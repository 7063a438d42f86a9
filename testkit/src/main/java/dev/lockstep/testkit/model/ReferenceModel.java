package dev.lockstep.testkit.model;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.model.Step.Side;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The reference model of one lock: per owner (a client's thread) and side, the hold count it may
 * have, updated from each call's outcome, and the checks that what the client believes is what
 * Redis stores.
 *
 * <p><b>Outcomes.</b> A call is granted, refused, or throws with its outcome unknown (a lost reply:
 * Redis may have run it). Granted moves the count up (down for an unlock); refused changes nothing
 * (an unlock refused means the owner held nothing: the count is 0). A call that throws keeps every
 * possible outcome, so the owner's count is a <em>set</em> ({@link OwnerModel}): a lock call may
 * have been granted; an unlock may have ended one hold, none, or (as {@code DistLock.unlock}
 * documents: "the lease still ends the hold") the whole hold, whose count Redis then keeps for at
 * most one lease. A lock call that threw may leave a grant its owner never heard of: while the
 * owner holds, Redis may count it too, but the owner's last unlock must end it
 * ({@link Guarantee#RETRY_SAFE}). The owner is uncertain
 * while the set has more than one value, and none of its counts is checked then. Its next call that
 * returns settles it: the count the lock then reports ({@code holdCount()}) must be one the set
 * allows, and from then on the lock and Redis must both say exactly that. This is how a lost reply
 * on a re-entry is caught: the set is {1, 2}, the unlock settles it at 0, and Redis must then store
 * nothing, where the defect leaves a count of 1 that renewals keep forever.
 *
 * <p><b>Losses.</b> A hold also ends without its owner's call: a {@code forceUnlock}, a stall past
 * the lease, a closed or crashed client, a fixed lease that ran out, a loss signal. The model then
 * settles the owner at 0 and gives its Redis field a deadline: gone within one lease (plus a slack
 * for a loaded machine), or the lock is stuck. A fault on a client's wire (a lost reply, a blip)
 * may cost its other holds their renewals; those owners are <em>shaken</em> for one lease, and
 * their counts are checked again only after it.
 *
 * <p><b>Checks</b> ({@link #check}), after every step: every key but the token counters has a TTL;
 * Redis never stores two exclusive holders, nor a writer beside another owner's read; no two owners
 * both believe they hold exclusively while the model says both holds stand; a settled owner's
 * {@code holdCount()}, {@code isHeldByCurrentThread()} and Redis field all equal the model; a field
 * nobody may hold leaves Redis by its deadline; and (for a stage that claims
 * {@link Guarantee#LEASE_LOSS_SIGNAL}) an owner that still believes it holds a hold Redis no longer
 * has is told within one lease.
 */
final class ReferenceModel {

    private final ModelSetup setup;
    private final Function<Integer, String[]> clientFields;
    private final OwnerModel[][][] owners = new OwnerModel[ModelSetup.CLIENTS][ModelSetup.THREADS][2];
    /** Redis fields that nobody holds any more, and by when (nanoTime) they must be gone. */
    private final Map<String, Long> departing = new HashMap<>();
    /** Since when (nanoTime) an owner believes it holds what Redis no longer stores, by field. */
    private final Map<String, Long> believedGone = new HashMap<>();

    /** A model of a lock set up as {@code setup}; {@code clientFields} gives client slot c's owner fields, by thread. */
    ReferenceModel(ModelSetup setup, Function<Integer, String[]> clientFields) {
        this.setup = setup;
        this.clientFields = clientFields;
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                for (Side side : Side.values()) {
                    owners[c][t][side.ordinal()] = new OwnerModel();
                }
            }
        }
    }

    OwnerModel owner(int client, int thread, Side side) {
        return owners[client][thread][side.ordinal()];
    }

    /** The Redis field that stores this owner's count on {@code side}. */
    String field(int client, int thread, Side side) {
        String base = clientFields.apply(client)[thread];
        return setup.readWrite() && side == Side.WRITE ? base + ":write" : base;
    }

    /** One lease and the slack a loaded machine needs: the bound on anything "within one lease". */
    long leaseNanos() {
        return setup.lease().plus(ModelSetup.SLACK).toNanos();
    }

    /** Whether another owner than this one may hold a side that excludes {@code side}. */
    Optional<String> otherHolder(int client, int thread, Side side) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                if (c == client && t == thread) {
                    continue;
                }
                if (owner(c, t, Side.WRITE).mayHold() || (side == Side.WRITE && owner(c, t, Side.READ).mayHold())) {
                    return Optional.of(Step.ownerName(c, t));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Redis may have granted a call the owner was told was refused: a re-entry's extra count must end
     * with the owner's last unlock, a first hold's field must run out within one lease, unrenewed.
     */
    void unheardGrant(int client, int thread, Side side, long now) {
        OwnerModel owner = owner(client, thread, side);
        if (owner.surelyHolds()) {
            owner.unheardGrants++;
        } else {
            departing.merge(field(client, thread, side), now + leaseNanos(), Math::max);
        }
    }

    /** The hold is gone without its owner's call: count 0, and its field must leave Redis within {@code within}. */
    void lost(int client, int thread, Side side, long now, long within) {
        OwnerModel owner = owner(client, thread, side);
        if (owner.mayHold()) {
            departing.merge(field(client, thread, side), now + within, Math::max);
        }
        owner.lostAt = now;
        owner.settle(0);
    }

    /** Every hold of client slot {@code client} is gone (closed, crashed, stalled past its lease). */
    void clientLost(int client, long now, long within) {
        for (int t = 0; t < ModelSetup.THREADS; t++) {
            for (Side side : Side.values()) {
                lost(client, t, side, now, within);
            }
        }
    }

    /** A fault hit client slot {@code client}'s wire: its holds may be lost unannounced for one lease. */
    void shake(int client, long now) {
        shake(client, -1, now);
    }

    /**
     * A fault on thread {@code caller}'s call hit client slot {@code client}'s wire: the other owners'
     * renewals may have failed. The caller's own doubt is in its set of counts, and its next call settles it.
     */
    void shake(int client, int caller, long now) {
        for (int t = 0; t < ModelSetup.THREADS; t++) {
            if (t == caller) {
                continue;
            }
            for (Side side : Side.values()) {
                owner(client, t, side).shakenUntil = now + leaseNanos();
            }
        }
    }

    /** The lock told {@code thread} at {@code toldAt} that its hold was lost: the field must be gone a lease later. */
    void told(int client, int thread, Side side, long toldAt) {
        OwnerModel owner = owner(client, thread, side);
        if (toldAt > owner.grantedAt && owner.mayHold()) {
            lost(client, thread, side, toldAt, leaseNanos());
        }
    }

    /** Fixed leases that ran out end their holds; the lock may not know yet, Redis must drop the field. */
    void advance(long now) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                for (Side side : Side.values()) {
                    OwnerModel owner = owner(c, t, side);
                    if (owner.fixedLeaseEnd > 0 && now > owner.fixedLeaseEnd && !owner.mixedLease) {
                        long end = owner.fixedLeaseEnd;
                        lost(c, t, side, end, ModelSetup.SLACK.toNanos());
                        owner.beliefUnknown = true;
                    }
                }
            }
        }
    }

    /**
     * A call of this owner returned (granted, refused or, when {@code released}, unlocked), and the
     * lock now reports {@code holdCount}: the count must be one the model allows, and becomes the only
     * one. A count of 0 that no unlock explains is a loss after a fault, excused for one lease.
     */
    Optional<Violation> settle(int client, int thread, Side side, int holdCount, boolean released, long now) {
        OwnerModel owner = owner(client, thread, side);
        String name = Step.ownerName(client, thread) + sideName(side);
        boolean faulted = owner.shakenUntil > now || owner.exposedUntil > now;
        boolean excused = owner.beliefUnknown || (faulted && holdCount == 0 && !released)
                || (owner.unlockThrew && holdCount == 0);
        owner.beliefUnknown = false;
        if (!owner.allows(holdCount) && !excused) {
            return Optional.of(new Violation("model-vs-lock", name + " holdCount() is " + holdCount + " after its call returned, but the model allows "
                    + owner));
        }
        if (excused && holdCount == 0 && owner.mayHold()) {
            departing.merge(field(client, thread, side), now + leaseNanos(), Math::max);
        }
        owner.settle(holdCount);
        return Optional.empty();
    }

    /**
     * Every check that needs no call: {@code beliefs[c][t][side]} is what each owner's lock says
     * ({@code holdCount()}, or -1 for a client being replaced), {@code held} its
     * {@code isHeldByCurrentThread()}.
     */
    List<Violation> check(long now, int[][][] beliefs, boolean[][][] held, RedisView redis) {
        List<Violation> broken = new ArrayList<>();
        redis.keysWithoutTtl().forEach(key -> broken.add(new Violation("ttl", "key without a TTL: " + key)));
        checkRedisExclusion(redis, broken);
        checkDeparting(now, redis, broken);
        List<String[]> believers = new ArrayList<>();
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                for (Side side : sides()) {
                    checkOwner(now, c, t, side, beliefs[c][t][side.ordinal()], held[c][t][side.ordinal()], redis,
                            broken);
                    OwnerModel owner = owner(c, t, side);
                    if (held[c][t][side.ordinal()] && owner.surelyHolds() && owner.shakenUntil <= now
                            && owner.fixedLeaseEnd == 0) {
                        believers.add(new String[] {Step.ownerName(c, t), side.name()});
                    }
                }
            }
        }
        for (String[] writer : believers) {
            for (String[] other : believers) {
                if (writer[1].equals(Side.WRITE.name()) && !writer[0].equals(other[0])) {
                    broken.add(new Violation("exclusion", "two owners believe they hold the lock and the model says "
                            + "both holds stand: " + believers.stream().map(b -> b[0] + " " + b[1].toLowerCase())
                            .collect(Collectors.joining(", "))));
                    return broken;
                }
            }
        }
        return broken;
    }

    private void checkOwner(long now, int c, int t, Side side, int holdCount, boolean held, RedisView redis,
                            List<Violation> broken) {
        OwnerModel owner = owner(c, t, side);
        String name = Step.ownerName(c, t) + sideName(side);
        String field = field(c, t, side);
        int stored = redis.count(field);
        if (held && stored == 0 && holdCount >= 0 && owner.fixedLeaseEnd == 0 && !owner.beliefUnknown && !owner.mixedLease
                && setup.claims().contains(Guarantee.LEASE_LOSS_SIGNAL)) {
            long since = believedGone.computeIfAbsent(field, f -> now);
            if (now - since > leaseNanos()) {
                broken.add(new Violation("not-told", name + " still believes it holds " + (now - since) / 1_000_000
                        + " ms after Redis lost its hold, and was not told"));
            }
        } else {
            believedGone.remove(field);
        }
        int expected = owner.settled();
        boolean fixedEnding = owner.fixedLeaseEnd > 0 && now > owner.fixedLeaseEnd - ModelSetup.SLACK.toNanos();
        // A fault on the owner's own call (its renewals' replies were lost too) may rightly cost it the hold.
        if (expected < 0 || holdCount < 0 || owner.shakenUntil > now || owner.exposedUntil > now || owner.beliefUnknown
                || fixedEnding || owner.mixedLease) {
            return;
        }
        if (holdCount != expected || held != (expected > 0)) {
            broken.add(new Violation("model-vs-lock", name + ": the model says " + expected + " holds, the lock says holdCount()=" + holdCount
                    + ", isHeldByCurrentThread()=" + held));
        }
        boolean unheard = expected > 0 && stored > expected && stored <= expected + owner.unheardGrants;
        if (stored != expected && !unheard && !(expected == 0 && departing.containsKey(field))) {
            broken.add(new Violation("model-vs-redis", name + ": the model says " + expected + " holds, Redis stores " + (stored < 0 ? "no majority"
                    : stored) + " in field " + field + " " + redis));
        }
    }

    private void checkRedisExclusion(RedisView redis, List<Violation> broken) {
        for (var node : redis.fields()) {
            List<String> writers = node.keySet().stream()
                    .filter(f -> !setup.readWrite() || f.endsWith(":write")).sorted().toList();
            if (writers.size() > 1) {
                broken.add(new Violation("exclusion", "Redis stores two exclusive holders: " + node));
            }
            if (setup.readWrite() && writers.size() == 1) {
                String writer = writers.get(0).substring(0, writers.get(0).length() - ":write".length());
                if (node.keySet().stream().anyMatch(f -> !f.endsWith(":write") && !f.equals(writer))) {
                    broken.add(new Violation("exclusion", "Redis stores a writer beside another owner's read: " + node));
                }
            }
        }
    }

    private void checkDeparting(long now, RedisView redis, List<Violation> broken) {
        for (String field : redis.anyFields()) {
            if (heldByModel(field, now)) {
                continue;
            }
            Long deadline = departing.get(field);
            Optional<Step> refused = refusedUnderFault(field);
            if (refused.isPresent() && (deadline == null || now > deadline)) {
                broken.add(new Violation("refused-but-granted", refused.get() + " returned false, yet Redis still stores a "
                        + "hold for it that nobody will unlock, a lease later: " + redis));
            } else if (deadline == null || now > deadline) {
                broken.add(new Violation("stuck-hold", "Redis keeps field " + field + " " + redis + (deadline == null
                        ? ownerOf(field).map(o -> ", though its owner " + o + " holds nothing (its last call settled"
                        + " it, and its lock agrees)").orElse(", which no owner may hold") : " " + (now - deadline) / 1_000_000
                        + " ms after it had to be gone (nobody holds it: its last unlock, loss or client is past)")));
            }
        }
        departing.values().removeIf(deadline -> now > deadline + leaseNanos());
    }

    /** The name of the current owner whose field is {@code field}, if any. */
    private Optional<String> ownerOf(String field) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                for (Side side : sides()) {
                    if (field(c, t, side).equals(field)) {
                        return Optional.of(Step.ownerName(c, t) + sideName(side));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The refused lock call under a wire fault of the current owner of {@code field}, if that was its last call. */
    private Optional<Step> refusedUnderFault(String field) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                for (Side side : sides()) {
                    if (field(c, t, side).equals(field) && owner(c, t, side).refusedUnderFault != null) {
                        return Optional.of(owner(c, t, side).refusedUnderFault);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a current owner may hold {@code field}, or is still being settled, so the field may be there. */
    private boolean heldByModel(String field, long now) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                for (Side side : sides()) {
                    OwnerModel owner = owner(c, t, side);
                    if (field(c, t, side).equals(field) && (owner.mayHold() || owner.shakenUntil > now)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The sides this lock has. */
    List<Side> sides() {
        return setup.readWrite() ? List.of(Side.WRITE, Side.READ) : List.of(Side.WRITE);
    }

    static String sideName(Side side) {
        return side == Side.READ ? " read" : "";
    }
}
