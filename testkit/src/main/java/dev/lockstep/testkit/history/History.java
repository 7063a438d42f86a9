package dev.lockstep.testkit.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What happened in one scenario run: timestamped events per actor (a client, or {@code redis}
 * for server-side events), recorded live and judged afterwards by the {@link Checker}.
 * Thread-safe; times are nanoseconds since the history began, on this JVM's monotonic clock.
 */
public final class History {

    /**
     * The actor name for injected faults, and the lane of every event Redis itself reports: those
     * come from {@code redis/<node>}, the node being {@code master}, {@code replica} or {@code n1..n5}.
     */
    public static final String REDIS = "redis";

    /** What an event records. */
    public enum Kind {
        /** A lock call returned holding the lock. */
        ACQUIRED,
        /** A lock call gave up or failed. */
        DENIED,
        /** A read-lock call returned holding the read side (or, on a stage without one, the lock). */
        READ_LOCKED,
        /** Entered the critical section. */
        ENTER,
        /** Left the critical section. */
        EXIT,
        /** Entered to read under a read lock: other readers may be inside too, no writer may. */
        READ_ENTER,
        /** Left after reading. */
        READ_EXIT,
        /** An unlock call returned normally. */
        UNLOCK,
        /** An unlock call was refused (IllegalMonitorStateException). */
        UNLOCK_REFUSED,
        /** The holder was told it lost the lock. */
        LOST,
        /** Redis reports a key expired. */
        EXPIRED,
        /** Redis reports a key deleted. */
        DELETED,
        /** The client died: its critical section ends with it, its lease runs on until it expires. */
        CRASH,
        /** A fault was injected: a pause, a partition, a node failure. */
        FAULT,
        /** Anything else worth a line in the timeline. */
        NOTE,
        /**
         * A node stores the lock's key for new owners (detail: their owner values, comma-separated, or
         * empty when the key was gone before the watch could read it): a timeline draws it as the
         * owner's bar on that node, not as a line of its own.
         */
        HELD,
        /** A node's key got a new TTL from a renewal: the watchdog at work. */
        RENEWED,
        /** The node stopped answering (killed, or restarting): what it stored is out of sight. */
        DOWN,
        /**
         * A key event on a key that is not the lock's: the fixture's replication marker, a lock's queue
         * or per-hold timeout keys. Timelines hide these unless asked.
         */
        FIXTURE
    }

    /**
     * One event.
     *
     * @param at         when, in nanoseconds since the history began
     * @param actor      who
     * @param kind       what
     * @param detail     a few words for the timeline
     * @param since      for ACQUIRED, READ_LOCKED and DENIED: when the lock call started; otherwise {@code at}
     * @param leaseFloor for {@link Kind#ACQUIRED}: a time before which the lease surely had not run out
     *                   (the attempt's start plus the lease), or {@link Long#MAX_VALUE} when unbounded
     * @param depth      for ACQUIRED and UNLOCK: the hold count after the call (0 after the last unlock)
     * @param locks      for a story over several names: the names the call took, asked for or let go (empty
     *                   where the story has one lock)
     */
    public record Event(long at, String actor, Kind kind, String detail, long since, long leaseFloor, int depth,
            List<String> locks) {

        /** An event of a story with one lock. */
        public Event(long at, String actor, Kind kind, String detail, long since, long leaseFloor, int depth) {
            this(at, actor, kind, detail, since, leaseFloor, depth, List.of());
        }

        /** Whether this event and {@code other} concern one lock: a name in common, or a story with one lock. */
        public boolean sharesLockWith(Event other) {
            return locks.isEmpty() || other.locks.isEmpty() || locks.stream().anyMatch(other.locks::contains);
        }

        /** Milliseconds since the history began. */
        public long millis() {
            return at / 1_000_000;
        }
    }

    private final long origin = System.nanoTime();
    private final List<Event> events = new ArrayList<>();
    private final List<String> nodes = new ArrayList<>();
    private final Set<String> keys = new LinkedHashSet<>();
    private final Map<String, String> clients = new LinkedHashMap<>();

    /** Nanoseconds since the history began. */
    public long now() {
        return System.nanoTime() - origin;
    }

    /** The {@link System#nanoTime()} of {@code at}, nanoseconds since the history began. */
    public long nanoTimeOf(long at) {
        return origin + at;
    }

    /** Records {@code kind} for {@code actor} now. */
    public void record(String actor, Kind kind, String detail) {
        long now = now();
        add(new Event(now, actor, kind, detail, now, Long.MAX_VALUE, 0));
    }

    /** Records an acquisition whose attempt started at {@code attemptStart} for {@code lease}. */
    public void acquired(String actor, long attemptStart, Duration lease, int depth, String detail) {
        acquired(actor, List.of(), attemptStart, lease, depth, detail);
    }

    /** Records an acquisition of {@code locks} (names) whose attempt started at {@code attemptStart} for {@code lease}. */
    public void acquired(String actor, List<String> locks, long attemptStart, Duration lease, int depth, String detail) {
        long floor = lease == null ? Long.MAX_VALUE : attemptStart + lease.toNanos();
        add(new Event(now(), actor, Kind.ACQUIRED, detail, attemptStart, floor, depth, List.copyOf(locks)));
    }

    /** Records a read-lock call that started at {@code attemptStart} and returned holding the read side. */
    public void readLocked(String actor, long attemptStart, String detail) {
        add(new Event(now(), actor, Kind.READ_LOCKED, detail, attemptStart, Long.MAX_VALUE, 0));
    }

    /** Records a lock call that started at {@code attemptStart} and returned without the lock. */
    public void denied(String actor, long attemptStart, String detail) {
        denied(actor, List.of(), attemptStart, detail);
    }

    /** Records a call for {@code locks} (names) that started at {@code attemptStart} and returned without them. */
    public void denied(String actor, List<String> locks, long attemptStart, String detail) {
        add(new Event(now(), actor, Kind.DENIED, detail, attemptStart, Long.MAX_VALUE, 0, List.copyOf(locks)));
    }

    /** Records an unlock call that started at {@code callStart} and returned, leaving {@code depth} holds. */
    public void unlocked(long callStart, String actor, int depth, String detail) {
        unlocked(callStart, actor, List.of(), depth, detail);
    }

    /** Records an unlock of {@code locks} (names) that started at {@code callStart} and returned, leaving {@code depth} holds. */
    public void unlocked(long callStart, String actor, List<String> locks, int depth, String detail) {
        add(new Event(callStart, actor, Kind.UNLOCK, detail, callStart, Long.MAX_VALUE, depth, List.copyOf(locks)));
    }

    /** Records an unlock of {@code locks} (names) that started at {@code callStart} and was refused or failed. */
    public void unlockRefused(long callStart, String actor, List<String> locks, String detail) {
        add(new Event(callStart, actor, Kind.UNLOCK_REFUSED, detail, callStart, Long.MAX_VALUE, 0, List.copyOf(locks)));
    }

    /** Records an event at an earlier time (e.g. the start of a call that has just returned). */
    public void recordAt(long at, String actor, Kind kind, String detail) {
        add(new Event(at, actor, kind, detail, at, Long.MAX_VALUE, 0));
    }

    private synchronized void add(Event event) {
        events.add(event);
    }

    /** Declares a watched node, so timelines give it a column even before its first event. */
    public synchronized void node(String name) {
        if (!nodes.contains(name)) {
            nodes.add(name);
        }
    }

    /**
     * Declares a lock key drawn in a column of its own, as a node is, where one node stores several
     * names: its events come from {@code redis/<key>}.
     */
    public synchronized void key(String name) {
        node(name);
        keys.add(name);
    }

    /** The watched nodes, and the keys drawn apart ({@link #key}), in the order they were declared. */
    public synchronized List<String> nodes() {
        return List.copyOf(nodes);
    }

    /** Whether the column {@code name} is a key's ({@link #key}) rather than a node's. */
    public synchronized boolean isKey(String name) {
        return keys.contains(name);
    }

    /** Declares that the client drawn in {@code lane} writes owner values starting with {@code clientId}. */
    public synchronized void client(String lane, String clientId) {
        clients.put(clientId, lane);
    }

    /** Client ids and the lanes they are drawn in. */
    public synchronized Map<String, String> clients() {
        return Map.copyOf(clients);
    }

    /** Every event so far, in time order. */
    public synchronized List<Event> events() {
        List<Event> copy = new ArrayList<>(events);
        copy.sort(Comparator.comparingLong(Event::at));
        return copy;
    }

    /** The first event of {@code kind} by {@code actor}, if there is one. */
    public Optional<Event> first(String actor, Kind kind) {
        return events().stream().filter(e -> e.actor().equals(actor) && e.kind() == kind).findFirst();
    }

    /** The last event of {@code kind} by {@code actor}; throws when there is none. */
    public Event last(String actor, Kind kind) {
        List<Event> matching = events().stream().filter(e -> e.actor().equals(actor) && e.kind() == kind).toList();
        if (matching.isEmpty()) {
            throw new IllegalStateException("no " + kind + " by " + actor + " in the history");
        }
        return matching.get(matching.size() - 1);
    }

    /** The timeline lanes (clients) in order of first appearance, {@link #REDIS} last. */
    public List<String> lanes() {
        Set<String> actors = new LinkedHashSet<>();
        boolean redis = false;
        for (Event e : events()) {
            if (REDIS.equals(Actor.laneOf(e.actor()))) {
                redis = true;
            } else {
                actors.add(Actor.laneOf(e.actor()));
            }
        }
        List<String> ordered = new ArrayList<>(actors);
        if (redis) {
            ordered.add(REDIS);
        }
        return ordered;
    }

    /** How a lock call that chose its own lease notes it; nothing for the stage's default. */
    static String leaseNote(Duration lease) {
        return lease == null ? "" : " (lease " + lease.toMillis() + " ms)";
    }
}
