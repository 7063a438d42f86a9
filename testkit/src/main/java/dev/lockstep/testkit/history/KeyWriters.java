package dev.lockstep.testkit.history;

import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which recorded lock call wrote a key a node stores, and so whose key it is: the watch hears of a
 * write a little after the client hears its reply, or, for a key that lived a moment, while the call
 * is still under way.
 */
final class KeyWriters {

    /** How far after a lock call returned its key may show up on a node: replication, and the watch's own read. */
    static final long SLACK_NANOS = 50_000_000L;

    private KeyWriters() {
    }

    /**
     * The lane (or lanes, joined by {@code +}) whose key {@code held} shows. Each owner value is a
     * client's id and thread from stage 3 on, which names the client outright. Stages 1 and 2 write a
     * constant or a fresh token: the owner is then the client whose lock call was under way when the
     * key appeared and returned closest to it (a call for {@code key}, when the column is a key's).
     */
    static String owner(Event held, List<Event> events, Map<String, String> clients, String key) {
        Set<String> lanes = new LinkedHashSet<>();
        for (String value : held.detail().split(",")) {
            String lane = clients.entrySet().stream().filter(c -> value.startsWith(c.getKey())).map(Map.Entry::getValue)
                    .findFirst().orElseGet(() -> byTime(held, events, key));
            lanes.add(lane);
        }
        return String.join("+", lanes);
    }

    /** The lane of the lock call that wrote {@code held}'s key, found by time alone; {@code ?} when none. */
    private static String byTime(Event held, List<Event> events, String key) {
        Event call = call(held, events, null, key);
        return call == null ? "?" : Actor.laneOf(call.actor());
    }

    /**
     * The lock call (of {@code lane}, or any client's when null) that wrote {@code held}'s key. A key the
     * watch read comes from the acquisition that returned closest to when the watch heard of it. A key
     * gone before the watch could read it lived for a moment: an acquisition still under way when the
     * watch heard of it (a re-entry, then the unlocks), else a failed call under way (a quorum round
     * taking its grants back), else the acquisition that returned closest. Where the column is a key's
     * ({@code key} not null), a call that names other keys does not count.
     */
    static Event call(Event held, List<Event> events, String lane, String key) {
        Event closest = null;
        Event acquiringNow = null;
        Event failingNow = null;
        for (Event call : events) {
            boolean lockCall = call.kind() == Kind.ACQUIRED || call.kind() == Kind.READ_LOCKED
                    || call.kind() == Kind.DENIED;
            boolean otherKey = key != null && !call.locks().isEmpty() && !call.locks().contains(key);
            if (!lockCall || otherKey || lane != null && !Actor.laneOf(call.actor()).equals(lane) || call.since() > held.at()
                    || held.at() > call.at() + SLACK_NANOS) {
                continue;
            }
            boolean underWay = held.at() <= call.at();
            if (call.kind() == Kind.DENIED) {
                failingNow = underWay && (failingNow == null || call.at() < failingNow.at()) ? call : failingNow;
                continue;
            }
            if (closest == null || Math.abs(call.at() - held.at()) < Math.abs(closest.at() - held.at())) {
                closest = call;
            }
            if (underWay && (acquiringNow == null || call.at() < acquiringNow.at())) {
                acquiringNow = call;
            }
        }
        if (!held.detail().isEmpty()) {
            return closest != null ? closest : failingNow;
        }
        return acquiringNow != null ? acquiringNow : failingNow != null ? failingNow : closest;
    }
}
