package dev.lockstep.testkit.model;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.model.Step.Side;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The rules the {@link ReferenceModel} is held to after every step ({@link #check}): every key but
 * the token counters has a TTL; Redis never stores two exclusive holders, nor a writer beside
 * another owner's read; no two owners both believe they hold exclusively while the model says both
 * holds stand; a settled owner's {@code holdCount()}, {@code isHeldByCurrentThread()} and Redis
 * field all equal the model; a field nobody may hold leaves Redis by its deadline; the key outlives
 * no explicit lease, and ends before none a holder surely has ({@link LeaseRule}); and (for a stage
 * that claims {@link Guarantee#LEASE_LOSS_SIGNAL}) an owner that still believes it holds a hold
 * Redis no longer has is told within one lease.
 */
final class ModelRules {

    /** A single name's count that cannot be told from its group's while the group's count is uncertain. */
    private static final int UNSPLIT = -2;

    private final ModelSetup setup;
    private final ReferenceModel model;
    /** Since when (nanoTime) an owner believes it holds what Redis no longer stores, by field. */
    private final Map<String, Long> believedGone = new HashMap<>();

    /** The rules of {@code model}, a lock set up as {@code setup}. */
    ModelRules(ModelSetup setup, ReferenceModel model) {
        this.setup = setup;
        this.model = model;
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
        LeaseRule.check(model, redis, now).ifPresent(broken::add);
        LeaseRule.checkFloor(model, redis, now, setup.severalNames()).ifPresent(broken::add);
        List<String[]> believers = new ArrayList<>();
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : model.sides()) {
                    checkOwner(now, c, t, side, beliefs[c][t][side.ordinal()], held[c][t][side.ordinal()], redis,
                            broken);
                    OwnerModel owner = model.owner(c, t, side);
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
        OwnerModel owner = model.owner(c, t, side);
        String name = Step.ownerName(c, t) + ReferenceModel.sideName(side);
        String field = model.field(c, t, side);
        int stored = redis.count(field);
        if (setup.severalNames() && side == Side.WRITE) {
            // Which part of the name's count is the group's only the model knows: the group's own count, while settled
            // and no fault (or force, while its call was under way) may have taken the group's share off the name, and
            // not in a fixed lease's last moments, when the lock may count the group's hold as lost already.
            OwnerModel groupOwner = model.owner(c, t, Side.GROUP);
            int group = groupOwner.settled();
            boolean groupEnding = groupOwner.fixedLeaseEnd > 0 && now > groupOwner.fixedLeaseEnd - ModelSetup.SLACK.toNanos();
            boolean split = group >= 0 && groupOwner.shakenUntil <= now && groupOwner.exposedUntil <= now && !groupEnding;
            stored = split ? redis.lockCount(field) - group : UNSPLIT;
        }
        if (held && stored == 0 && holdCount >= 0 && owner.fixedLeaseEnd == 0 && !owner.beliefUnknown && !owner.mixedLease
                && setup.claims().contains(Guarantee.LEASE_LOSS_SIGNAL)) {
            long since = believedGone.computeIfAbsent(field, f -> now);
            if (now - since > model.leaseNanos()) {
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
        if (stored == UNSPLIT) {
            return;
        }
        boolean unheard = expected > 0 && stored > expected && stored <= expected + owner.unheardGrants;
        // A group hold of the same owner that ended on its own still counts on the modelled name until given back.
        Long groupDeparts = side == Side.WRITE && setup.severalNames()
                ? model.departures().deadline(model.field(c, t, Side.GROUP)) : null;
        boolean givingBack = groupDeparts != null && now <= groupDeparts && stored > expected;
        if (stored != expected && !unheard && !givingBack && !(expected == 0 && model.departures().deadline(field) != null)) {
            broken.add(new Violation("model-vs-redis", name + ": the model says " + expected + " holds, Redis stores " + (stored < 0 ? "no majority"
                    : stored) + " in field " + field + " " + redis));
        }
    }

    private void checkRedisExclusion(RedisView redis, List<Violation> broken) {
        for (var node : redis.fields()) {
            if (setup.severalNames()) {
                // Every lock of the run covers the modelled name: two owners may not both hold through any.
                if (node.keySet().stream().map(RedisView::owner).distinct().count() > 1) {
                    broken.add(new Violation("exclusion", "Redis stores two holders of the modelled name: " + node));
                }
                continue;
            }
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
            Long deadline = model.departures().deadline(field);
            Optional<Step> refused = refusedUnderFault(field);
            if (refused.isPresent() && (deadline == null || now > deadline)) {
                broken.add(new Violation("refused-but-granted", refused.get() + " returned false, yet Redis still stores a "
                        + "hold for it that nobody will unlock, a lease later: " + redis));
            } else if (deadline == null || now > deadline) {
                // The owner is named, with its side: a read field and its owner's write field differ by a suffix only.
                Optional<String> owner = ownerOf(field);
                broken.add(new Violation("stuck-hold", "Redis keeps field " + field + owner.map(o -> " (" + o + ")")
                        .orElse("") + " " + redis + (deadline == null ? owner.map(o -> ", though its owner holds nothing"
                        + " (its last call settled it, and its lock agrees)").orElse(", which no owner may hold")
                        : " " + (now - deadline) / 1_000_000 + " ms after it had to be gone (nobody holds it: its last"
                        + " unlock, loss or client is past)")));
            }
        }
        model.departures().forgetPast(now, model.leaseNanos());
    }

    /** The name of the current owner whose field is {@code field}, if any. */
    private Optional<String> ownerOf(String field) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : model.sides()) {
                    if (model.field(c, t, side).equals(field)) {
                        return Optional.of(Step.ownerName(c, t) + ReferenceModel.sideName(side));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The refused lock call under a wire fault of the current owner of {@code field}, if that was its last call. */
    private Optional<Step> refusedUnderFault(String field) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : model.sides()) {
                    if (model.field(c, t, side).equals(field) && model.owner(c, t, side).refusedUnderFault != null) {
                        return Optional.of(model.owner(c, t, side).refusedUnderFault);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a current owner may hold {@code field}, or is still being settled, so the field may be there. */
    private boolean heldByModel(String field, long now) {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : model.sides()) {
                    OwnerModel owner = model.owner(c, t, side);
                    if (model.field(c, t, side).equals(field) && (owner.mayHold() || owner.shakenUntil > now)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
