package dev.lockstep.lab;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A {@link LockSnapshot} told as an operator asks it: which kind of lock, who holds it and how
 * often, the lease left, a fair lock's waiters, a read-write lock's mode, readers and writer, and
 * stage 7's fencing counter. Lockstep's and Redisson's locks share their layouts, so one reading
 * fits both.
 */
final class LockDescription {

    /** What stage 1 writes: the same value for every holder, so the key names nobody. */
    private static final String STAGE_ONE_VALUE = "1";

    private LockDescription() {
    }

    /** The report of one lock, one fact a line. */
    static List<String> of(LockSnapshot lock) {
        List<String> lines = new ArrayList<>();
        switch (lock.type()) {
            case "none" -> lines.add("not held: there is no key '" + lock.name() + "'");
            case "string" -> string(lock, lines);
            case "hash" -> {
                if (lock.fields().containsKey(LockSnapshot.MODE)) {
                    readWrite(lock, lines);
                } else {
                    reentrant(lock, lines);
                }
            }
            default -> lines.add("not a lock: '" + lock.name() + "' is a " + lock.type() + ", which no lock layout writes");
        }
        waiters(lock, lines);
        if (lock.fence() != null) {
            lines.add("fencing: stage 7's counter of the name's slot last handed out token " + lock.fence()
                    + "; a stage-7 holder's token is at most that");
        }
        return lines;
    }

    /** For several names read together: the owners that hold every one of them, as a lock over several names does. */
    static List<String> together(List<LockSnapshot> locks) {
        Set<String> common = new LinkedHashSet<>(owners(locks.get(0)));
        locks.forEach(lock -> common.retainAll(owners(lock)));
        if (common.isEmpty()) {
            return List.of("no one owner holds all " + locks.size() + " names");
        }
        return common.stream()
                .map(owner -> "all " + locks.size() + " names are held by " + owner(owner))
                .toList();
    }

    /** An owner field {@code clientId:threadId} in words: a negative id is a Lockstep hold that belongs to no thread. */
    private static String owner(String field) {
        int colon = field.lastIndexOf(':');
        String id = colon < 0 ? "" : field.substring(colon + 1);
        if (!id.matches("-?\\d+")) {
            return "'" + field + "' (not a clientId:threadId field)";
        }
        String client = "client " + field.substring(0, colon);
        return id.startsWith("-") ? client + ", hold handle " + id.substring(1) + " (held for no thread)"
                : client + ", thread " + id;
    }

    private static void string(LockSnapshot lock, List<String> lines) {
        if (STAGE_ONE_VALUE.equals(lock.value())) {
            lines.add("kind: SET NX PX with value '1' (stage 1): it does not say who holds it");
        } else {
            lines.add("kind: SET NX PX with an owner token (stage 2)");
            lines.add("held by: the holder of token '" + lock.value() + "'");
        }
        lines.add("lease left: " + lease(lock.pttl()));
    }

    private static void reentrant(LockSnapshot lock, List<String> lines) {
        lines.add(lock.waiters().isEmpty()
                ? "kind: reentrant hash (stages 3 to 7, Redisson's RLock; a fair lock nobody waits for looks the same)"
                : "kind: fair lock (Redisson's RFairLock layout: the reentrant hash, a queue and the waiters' deadlines)");
        lock.fields().forEach((owner, count) -> lines.add("held by " + owner(owner) + ": hold count " + count));
        lines.add("lease left: " + lease(lock.pttl()));
    }

    private static void readWrite(LockSnapshot lock, List<String> lines) {
        lines.add("kind: read-write lock (Redisson's RReadWriteLock layout), mode " + lock.fields().get(LockSnapshot.MODE));
        if (lock.readHolds().isEmpty()) {
            lines.add("readers: none");
        }
        lock.readHolds().forEach((owner, leases) -> lines.add("read by " + owner(owner) + ": " + leases.size()
                + (leases.size() == 1 ? " read hold" : " read holds") + ", lease left "
                + leases.stream().map(LockDescription::lease).collect(Collectors.joining(", "))));
        List<String> writers = new ArrayList<>();
        lock.fields().forEach((field, count) -> {
            if (field.endsWith(LockSnapshot.WRITER_SUFFIX)) {
                writers.add("written by " + owner(writerOwner(field)) + ": hold count " + count);
            }
        });
        lines.addAll(writers.isEmpty() ? List.of("writer: none") : writers);
        lines.add("lease left: " + lease(lock.pttl()) + " (the hash's: its longest hold)");
    }

    private static void waiters(LockSnapshot lock, List<String> lines) {
        if (lock.waiters().isEmpty()) {
            return;
        }
        lines.add("waiting: " + lock.waiters().size() + ", first in line first");
        for (int i = 0; i < lock.waiters().size(); i++) {
            LockSnapshot.Waiter waiter = lock.waiters().get(i);
            lines.add("  " + (i + 1) + ". " + owner(waiter.owner()) + (waiter.keptMillis() == null
                    ? ": no deadline, dropped by the next request that finds it first"
                    : ": keeps its place for " + millis(waiter.keptMillis()) + " unless it asks again"));
        }
    }

    /** All a hash's owners, a read-write lock's readers and writer alike. */
    private static Set<String> owners(LockSnapshot lock) {
        return lock.fields().keySet().stream()
                .filter(field -> !field.equals(LockSnapshot.MODE))
                .map(field -> field.endsWith(LockSnapshot.WRITER_SUFFIX) ? writerOwner(field) : field)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** The owner in a writer's field, {@code clientId:threadId:write}. */
    private static String writerOwner(String field) {
        return field.substring(0, field.length() - LockSnapshot.WRITER_SUFFIX.length());
    }

    private static String lease(long pttl) {
        if (pttl == -2) {
            return "none, the key is gone";
        }
        return pttl == -1 ? "NONE: the key never expires, which no lock writes" : millis(pttl);
    }

    private static String millis(long millis) {
        return String.format(Locale.ROOT, "%,d ms", millis);
    }
}
