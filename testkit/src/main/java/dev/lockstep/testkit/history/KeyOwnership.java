package dev.lockstep.testkit.history;

import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The state a lock keeps out of sight, read back from a {@link History}: who holds the key on each
 * watched node and when (its {@link Kind#HELD} events up to the key's expiry, deletion or the node
 * going down), the renewals on it, and each holder's lease deadline by its own clock. Both timelines
 * draw it: the terminal as a column per node, the SVG as a bar per node.
 */
public final class KeyOwnership {

    /**
     * The key stored for {@code owner} on {@code node} from {@code from} to {@code to} (nanoseconds since
     * the history began); {@code end} is what ended it: {@link Kind#EXPIRED}, {@link Kind#DELETED},
     * {@link Kind#DOWN}, {@link Kind#HELD} (new owners joined), or null when it was still held at the end.
     */
    public record Hold(String node, String owner, long from, long to, Kind end) {
    }

    /** A renewal of {@code owner}'s key on {@code node}. */
    public record Renewal(String node, String owner, long at) {
    }

    /** When {@code lane}'s lease ran out by its own clock, while it still held the lock or after it crashed. */
    public record Deadline(String lane, long at) {

        /** The deadline as a timeline draws it: a note in the holder's lane. */
        public Event event() {
            return new Event(at, lane, Kind.NOTE, "lease over (own clock)", at, Long.MAX_VALUE, 0);
        }
    }

    /** Node events of one kind this close together happened at one instant: a RedLock unlock deletes five keys at once. */
    private static final long ONE_INSTANT_NANOS = 5_000_000L;
    /** The node events a timeline draws once for all the nodes they happened on. */
    private static final Set<Kind> MERGED = EnumSet.of(Kind.EXPIRED, Kind.DELETED, Kind.RENEWED);

    private final List<String> nodes;
    private final List<String> keys;
    private final Map<Event, String> owners = new HashMap<>();
    private final Map<Event, Event> calls = new HashMap<>();
    private final List<Hold> holds = new ArrayList<>();
    private final List<Renewal> renewals = new ArrayList<>();
    private final List<Deadline> deadlines = new ArrayList<>();

    private KeyOwnership(History history) {
        List<Event> events = history.events();
        this.nodes = history.nodes();
        this.keys = nodes.stream().filter(history::isKey).toList();
        Map<String, String> clients = history.clients();
        Map<String, Event> open = new LinkedHashMap<>();
        for (Event e : events) {
            String node = node(e);
            if (node == null) {
                continue;
            }
            Event held = open.get(node);
            switch (e.kind()) {
                case HELD -> {
                    String key = keys.contains(node) ? node : null;
                    String owner = KeyWriters.owner(e, events, clients, key);
                    owners.put(e, owner);
                    if (held != null && owners.get(held).equals(owner)) {
                        // The same owners read again: one hold goes on.
                        continue;
                    }
                    Event call = KeyWriters.call(e, events, owner.split("\\+")[0], key);
                    if (call != null) {
                        calls.put(e, call);
                    }
                    if (held != null) {
                        holds.add(new Hold(node, owners.get(held), held.at(), e.at(), Kind.HELD));
                    }
                    open.put(node, e);
                }
                case RENEWED -> {
                    if (held != null) {
                        renewals.add(new Renewal(node, owners.get(held), e.at()));
                    }
                }
                case EXPIRED, DELETED, DOWN -> {
                    if (held != null) {
                        holds.add(new Hold(node, owners.get(held), held.at(), e.at(), e.kind()));
                        open.remove(node);
                    }
                }
                default -> {
                }
            }
        }
        long last = events.isEmpty() ? 0 : events.get(events.size() - 1).at();
        open.forEach((node, held) -> holds.add(new Hold(node, owners.get(held), held.at(), last, null)));
        deadlines(events, last);
    }

    /** The ownership recorded in {@code history}. */
    public static KeyOwnership of(History history) {
        return new KeyOwnership(history);
    }

    /** The watched nodes, in order: {@code master} (and {@code replica}), or {@code n1..n5}; or the keys drawn apart. */
    public List<String> nodes() {
        return nodes;
    }

    /** Whether the column {@code node} is a key drawn apart ({@link History#key}) rather than a node. */
    public boolean isKey(String node) {
        return keys.contains(node);
    }

    /** Every stretch a node stored the key, in the order they ended. */
    public List<Hold> holds() {
        return holds;
    }

    /** Every renewal seen on a node that stored the key. */
    public List<Renewal> renewals() {
        return renewals;
    }

    /** The leases that ran out under their holders, by the holders' own clocks. */
    public List<Deadline> deadlines() {
        return deadlines;
    }

    /** The lane (or lanes, joined by {@code +}) whose key a {@link Kind#HELD} event shows; {@code ?} when unknown. */
    public String owner(Event held) {
        return owners.getOrDefault(held, "?");
    }

    /**
     * Where a {@link Kind#HELD} event belongs in a list of rows: just before the acquisition (of the
     * lock or a read side) that wrote the key returned. A client often hears its reply before the watch hears of the write, and a row
     * that says "locked" should show the key it took.
     */
    public long drawnAt(Event held) {
        Event call = calls.get(held);
        return call == null || call.kind() == Kind.DENIED ? held.at() : call.at() - 1;
    }

    /**
     * {@code events}, in order, cut into runs that a timeline draws as one event: an expiry, deletion or
     * renewal joins the run before it when that run began with one of its kind and words on a node at most
     * 5 ms earlier by {@code time}; every other event is a run of its own. Only with two nodes or more, since
     * a merged event is labelled by its nodes. With {@code nodeOnce} a node is in a run at most once, as a
     * text row shows one state per node; without it a node that deleted the key twice at once is named twice.
     */
    public List<List<Event>> atOneInstant(List<Event> events, ToLongFunction<Event> time, boolean nodeOnce) {
        List<List<Event>> runs = new ArrayList<>();
        for (Event e : events) {
            List<Event> run = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            Event first = run == null ? null : run.get(0);
            boolean joins = first != null && nodes.size() > 1 && MERGED.contains(e.kind()) && first.kind() == e.kind()
                    && node(first) != null && node(e) != null && first.detail().equals(e.detail())
                    && time.applyAsLong(e) - time.applyAsLong(first) <= ONE_INSTANT_NANOS
                    && !(nodeOnce && run.stream().anyMatch(x -> x.actor().equals(e.actor())));
            if (joins) {
                run.add(e);
            } else {
                runs.add(new ArrayList<>(List.of(e)));
            }
        }
        return runs;
    }

    /** The node a Redis event came from, or null for a client's event or a fault. */
    public static String node(Event e) {
        String prefix = History.REDIS + "/";
        return e.actor().startsWith(prefix) ? e.actor().substring(prefix.length()) : null;
    }

    /**
     * When the acquisition {@code e} wrote its key: the first of its holds that began during the call,
     * or the call's return when no node showed one. A waiter's call starts long before its lease does.
     */
    private long keyWritten(Event e, String lane) {
        return holds.stream().filter(h -> h.owner().equals(lane) && h.from() >= e.since()
                && (e.locks().isEmpty() || !keys.contains(h.node()) || e.locks().contains(h.node()))
                && h.from() <= e.at() + KeyWriters.SLACK_NANOS).mapToLong(Hold::from).min().orElse(e.at());
    }

    /**
     * A holder's deadline is the moment its key was written plus the lease, moved on by each renewal of its
     * key to the renewal plus the lease; kept when it passed before the holder let go.
     */
    private void deadlines(List<Event> events, long last) {
        Map<String, long[]> holding = new HashMap<>();
        List<Renewal> pending = new ArrayList<>(renewals);
        for (Event e : events) {
            String lane = Actor.laneOf(e.actor());
            while (!pending.isEmpty() && pending.get(0).at() <= e.at()) {
                Renewal renewal = pending.remove(0);
                long[] hold = holding.get(renewal.owner());
                if (hold != null) {
                    hold[1] = Math.max(hold[1], renewal.at() + hold[0]);
                }
            }
            boolean released = e.kind() == Kind.UNLOCK && e.depth() == 0 || e.kind() == Kind.UNLOCK_REFUSED
                    || e.kind() == Kind.LOST;
            if (e.kind() == Kind.ACQUIRED && e.depth() <= 1 && e.leaseFloor() != Long.MAX_VALUE) {
                long lease = e.leaseFloor() - e.since();
                holding.put(lane, new long[] {lease, keyWritten(e, lane) + lease});
            } else if (released && holding.containsKey(lane)) {
                long deadline = holding.remove(lane)[1];
                if (deadline < e.at()) {
                    deadlines.add(new Deadline(lane, deadline));
                }
            }
        }
        holding.forEach((lane, hold) -> {
            if (hold[1] <= last) {
                deadlines.add(new Deadline(lane, hold[1]));
            }
        });
        deadlines.sort((x, y) -> Long.compare(x.at(), y.at()));
    }
}
