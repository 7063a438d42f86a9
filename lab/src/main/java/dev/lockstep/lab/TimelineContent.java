package dev.lockstep.lab;

import dev.lockstep.lab.SvgTimeline.Picture;
import dev.lockstep.lab.SvgTimeline.Tone;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Intrusion;
import dev.lockstep.testkit.history.Checker.Overlap;
import dev.lockstep.testkit.history.Checker.Section;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership;
import dev.lockstep.testkit.history.KeyOwnership.Deadline;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a timeline picture shows, before anything is placed: the events that get a label (node events
 * on the Redis lane, merged where several nodes reported one thing at one instant, and each lease that
 * ran out under its holder), the critical sections, the overlaps, what is marked as the violation, and
 * each event's label text.
 */
final class TimelineContent {

    /** Node events the node lanes draw as bars and ticks, or that are the fixture's: no label of their own. */
    private static final Set<Kind> UNLABELLED = EnumSet.of(Kind.HELD, Kind.RENEWED, Kind.DOWN, Kind.FIXTURE);
    /** The longest words a label shows for one event, in characters. */
    private static final int MAX_WORDS = 46;

    private final Picture picture;
    private final KeyOwnership ownership;
    private final List<String> lanes;
    private final List<Event> events;
    private final Set<Event> deadlines = new HashSet<>();
    private final Map<Event, String> steps = new HashMap<>();
    private final Set<Event> highlighted = new HashSet<>();
    private final Map<Event, String> intruded = new HashMap<>();
    private final List<Overlap> overlaps;
    private final List<Section> sections;

    /** What {@code picture} shows. */
    TimelineContent(Picture picture) {
        History history = picture.history();
        this.picture = picture;
        this.ownership = KeyOwnership.of(history);
        this.steps.putAll(picture.steps());
        this.events = labelled(history.events());
        this.lanes = history.lanes();
        this.overlaps = Checker.overlaps(history);
        this.sections = Checker.sections(history);
        for (Intrusion intrusion : Checker.intrusions(history)) {
            highlighted.add(intrusion.intruder());
            intruded.putIfAbsent(intrusion.intruder(), laneOf(intrusion.holder().actor()));
        }
        if (picture.tone() == Tone.VIOLATION && overlaps.isEmpty() && intruded.isEmpty()) {
            // No overlap and no intrusion to point at (a holder waiting for itself, say): mark the refusals.
            events.stream().filter(e -> e.kind() == Kind.DENIED || e.kind() == Kind.UNLOCK_REFUSED
                    || e.kind() == Kind.LOST).forEach(highlighted::add);
        }
    }

    private List<Event> labelled(List<Event> recorded) {
        List<Event> drawn = recorded.stream().filter(e -> !UNLABELLED.contains(e.kind())).toList();
        List<Event> result = new ArrayList<>();
        for (List<Event> run : ownership.atOneInstant(drawn, Event::at, false)) {
            Event first = run.get(0);
            if (KeyOwnership.node(first) == null) {
                result.add(first);
                continue;
            }
            String where = ownership.nodes().size() > 1
                    ? String.join(", ", run.stream().map(KeyOwnership::node).toList()) + ": " : "";
            Event onRedisLane = new Event(first.at(), History.REDIS, first.kind(), where + first.detail(),
                    first.at(), Long.MAX_VALUE, 0);
            steps.put(onRedisLane, steps.get(first));
            result.add(onRedisLane);
        }
        for (Deadline deadline : ownership.deadlines()) {
            Event e = deadline.event();
            deadlines.add(e);
            result.add(e);
        }
        result.sort((x, y) -> Long.compare(x.at(), y.at()));
        return result;
    }

    /** The picture this content is of. */
    Picture picture() {
        return picture;
    }

    /** Whom each node stored the key for, and when. */
    KeyOwnership ownership() {
        return ownership;
    }

    /** The lanes, clients first and {@code redis} last, as the history names them. */
    List<String> lanes() {
        return lanes;
    }

    /** The events that get a label, in time order. */
    List<Event> events() {
        return events;
    }

    /** The stretches where two clients were inside at once. */
    List<Overlap> overlaps() {
        return overlaps;
    }

    /** Every critical section. */
    List<Section> sections() {
        return sections;
    }

    /** Whether {@code e} marks a lease running out by its holder's clock. */
    boolean isDeadline(Event e) {
        return deadlines.contains(e);
    }

    /** Whether {@code e} is ringed as the violation. */
    boolean isHighlighted(Event e) {
        return highlighted.contains(e);
    }

    /** The verdict as the box under the picture says it. */
    String verdictLine() {
        String head = switch (picture.tone()) {
            case VIOLATION -> "VIOLATION: ";
            case OK -> "OK: ";
            case BROKEN -> "The run broke: ";
        };
        return head + picture.verdict();
    }

    /** What {@code e}'s label says: its step name, its words, and whom an intruder walked past. */
    List<Part> parts(Event e) {
        List<Part> parts = new ArrayList<>();
        String step = steps.get(e);
        if (step != null) {
            // Dark bold text on the label's white halo reads as a tag.
            parts.add(Part.bold(step + " ", "#202124"));
        }
        boolean marked = highlighted.contains(e);
        parts.add(new Part(shorten(words(e)), marked ? SvgShapes.RED : colour(e.kind()), marked));
        String holder = intruded.get(e);
        if (holder != null) {
            parts.add(Part.bold(" ← " + holder + " held it", SvgShapes.RED));
        }
        return parts;
    }

    /** The lane an actor is drawn in: a client's threads share its lane, the nodes share {@code redis}. */
    static String laneOf(String actor) {
        int slash = actor.indexOf('/');
        return slash < 0 ? actor : actor.substring(0, slash);
    }

    private static String words(Event e) {
        return e.kind() == Kind.DENIED ? "no lock: " + e.detail() : e.detail();
    }

    private static String shorten(String text) {
        return text.length() <= MAX_WORDS ? text : text.substring(0, MAX_WORDS - 1) + "…";
    }

    private static String colour(Kind kind) {
        return switch (kind) {
            case ACQUIRED, READ_LOCKED -> "#1e7e34";
            case DENIED, UNLOCK_REFUSED, LOST -> "#b06000";
            case FAULT, CRASH -> "#8e24aa";
            case EXPIRED -> "#00695c";
            case DELETED -> "#5f6368";
            case ENTER, EXIT, READ_ENTER, READ_EXIT, UNLOCK, NOTE, HELD, RENEWED, DOWN, FIXTURE -> "#202124";
        };
    }
}
