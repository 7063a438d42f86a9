package dev.lockstep.testkit.history;

import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Judges a {@link History}: the violations a lock exists to prevent, found from the recorded events alone. */
public final class Checker {

    /**
     * How much earlier than the client's own reckoning Redis may expire a key: a millisecond by its
     * clock, and more when the machine is busy, since Redis stamps a command with a clock it reads
     * once per loop (16 ms early was seen with two test runs sharing two cores). Every violation the
     * scenarios reproduce misses a lease by more than a second.
     */
    private static final long EXPIRY_TOLERANCE_NANOS = 50_000_000;

    private Checker() {
    }

    /**
     * A critical section of one actor, from enter to exit (or to the end of the history, if it never left).
     *
     * @param actor who was inside
     * @param from  when it entered
     * @param to    when it left
     * @param note  why the section counts, when that needs saying (empty for a plain one)
     */
    public record Section(String actor, long from, long to, String note) {

        /** A plain section. */
        public Section(String actor, long from, long to) {
            this(actor, from, to, "");
        }

        /** The actor, and the note if there is one. */
        public String label() {
            return note.isEmpty() ? actor : actor + " " + note;
        }
    }

    /** Two actors inside the critical section at once: mutual exclusion broken. */
    public record Overlap(Section first, Section second) {

        /** When both were inside. */
        public long from() {
            return Math.max(first.from, second.from);
        }

        @Override
        public String toString() {
            return first.actor + " and " + second.actor + " were both inside from " + from() / 1_000_000 + " ms to "
                    + Math.min(first.to, second.to) / 1_000_000 + " ms";
        }
    }

    /**
     * An actor acquired while another still held the lock with a lease that had surely not run out
     * and had not started to unlock: someone removed a lock that was not theirs.
     */
    public record Intrusion(Event holder, Event intruder) {

        @Override
        public String toString() {
            return intruder.actor() + " took the lock at " + intruder.millis() + " ms while " + holder.actor()
                    + " held it (lease good until at least " + holder.leaseFloor() / 1_000_000 + " ms)";
        }
    }

    /** Every critical section in the history. */
    public static List<Section> sections(History history) {
        return stretches(history, Kind.ENTER, Kind.EXIT);
    }

    /** Every stretch an actor read under a read lock. */
    public static List<Section> reads(History history) {
        return stretches(history, Kind.READ_ENTER, Kind.READ_EXIT);
    }

    /** From each {@code enter} to the actor's next {@code exit} or crash (or the history's end). */
    private static List<Section> stretches(History history, Kind enter, Kind exit) {
        List<Event> events = history.events();
        long end = events.isEmpty() ? 0 : events.get(events.size() - 1).at();
        Map<String, Long> open = new HashMap<>();
        List<Section> stretches = new ArrayList<>();
        for (Event e : events) {
            if (e.kind() == enter) {
                open.put(e.actor(), e.at());
            } else if ((e.kind() == exit || e.kind() == Kind.CRASH) && open.containsKey(e.actor())) {
                stretches.add(new Section(e.actor(), open.remove(e.actor()), e.at()));
            }
        }
        open.forEach((actor, from) -> stretches.add(new Section(actor, from, end)));
        return stretches;
    }

    /** The most actors reading at one moment. */
    public static int mostReadersAtOnce(History history) {
        int now = 0;
        int most = 0;
        for (Event e : history.events()) {
            if (e.kind() == Kind.READ_ENTER) {
                most = Math.max(most, ++now);
            } else if (e.kind() == Kind.READ_EXIT) {
                now--;
            }
        }
        return most;
    }

    /** Pairs of a critical section (a write) and a read of another actor that overlap in time. */
    public static List<Overlap> readsBesideWrites(History history) {
        List<Overlap> overlaps = new ArrayList<>();
        List<Section> reads = reads(history);
        for (Section write : sections(history)) {
            for (Section read : reads) {
                if (!write.actor.equals(read.actor) && write.from < read.to && read.from < write.to) {
                    overlaps.add(write.from <= read.from ? new Overlap(write, read) : new Overlap(read, write));
                }
            }
        }
        return overlaps;
    }

    /** Pairs of critical sections of different actors that overlap in time. */
    public static List<Overlap> overlaps(History history) {
        return overlaps(sections(history));
    }

    /** Pairs of {@code sections} of different actors that overlap in time, in the order of the list: mutual exclusion broken. */
    public static List<Overlap> overlaps(List<Section> sections) {
        List<Overlap> overlaps = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            for (int j = i + 1; j < sections.size(); j++) {
                Section a = sections.get(i);
                Section b = sections.get(j);
                if (!a.actor.equals(b.actor) && a.from < b.to && b.from < a.to) {
                    overlaps.add(a.from <= b.from ? new Overlap(a, b) : new Overlap(b, a));
                }
            }
        }
        return overlaps;
    }

    /**
     * Acquisitions made while another actor held the lock, inside its lease and before its last
     * unlock began. Expiry can explain an overlap; nothing but a foreign release explains these.
     * In a story over several names, only holders of a name in common count.
     */
    public static List<Intrusion> intrusions(History history) {
        Map<String, Event> holders = new HashMap<>();
        List<Intrusion> intrusions = new ArrayList<>();
        for (Event e : history.events()) {
            switch (e.kind()) {
                case ACQUIRED -> {
                    for (Event held : holders.values()) {
                        if (!held.actor().equals(e.actor()) && held.sharesLockWith(e)
                                && e.at() < held.leaseFloor() - EXPIRY_TOLERANCE_NANOS) {
                            intrusions.add(new Intrusion(held, e));
                        }
                    }
                    holders.putIfAbsent(e.actor() + " " + e.locks(), e);
                }
                case UNLOCK -> {
                    if (e.depth() == 0 || !e.locks().isEmpty()) {
                        holders.values().removeIf(held -> held.actor().equals(e.actor()) && held.sharesLockWith(e));
                    }
                }
                case UNLOCK_REFUSED, LOST ->
                    holders.values().removeIf(held -> held.actor().equals(e.actor()) && held.sharesLockWith(e));
                default -> {
                }
            }
        }
        return intrusions;
    }

}
