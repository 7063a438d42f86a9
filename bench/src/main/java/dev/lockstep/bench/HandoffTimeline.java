package dev.lockstep.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.ToLongFunction;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The handoffs of one flight recording of {@link FairHandoff}, each cut into segments. A handoff
 * starts when a holder calls {@code unlock()} and ends when the next thread to take the lock, one
 * that was already waiting, returns from {@code lock()}. In between, in order:
 *
 * <pre>
 * release call         the holder calls unlock()                      HandoffMark
 * release sent         the holder's thread writes the unlock script    jdk.SocketWrite, holder
 * message read         the waiter's client reads the release message   jdk.SocketRead, subscriber thread
 * waiter woken         the waiter's thread, parked, runs again         jdk.ThreadPark, waiter
 * lock script sent     the waiter's thread writes its lock script      jdk.SocketWrite, waiter
 * grant read           the waiter's thread reads the script's reply    jdk.SocketRead, waiter
 * lock() returns       the waiter is in                                HandoffMark
 * </pre>
 *
 * Beside them: the holder reading its own reply, its {@code unlock()} returning, and a separate
 * subscriber (a connection of its own, doing nothing else) receiving the message: when a client
 * that only listens hears of the release.
 */
final class HandoffTimeline {

    /** Where a segment starts and ends; each is measured over the handoffs that have both ends. */
    enum Segment {
        RELEASE_SENT("release call", "unlock script written"),
        MESSAGE_READ("unlock script written", "waiter's client reads the message"),
        WAITER_WOKEN("message read", "waiter thread runs"),
        LOCK_SENT("waiter thread runs", "lock script written"),
        GRANT_READ("lock script written", "its reply read"),
        LOCK_RETURNS("reply read", "lock() returns"),
        UNSUBSCRIBE_SENT("reply read", "waiter's next socket write before lock() returns (its UNSUBSCRIBE)"),
        TOTAL("release call", "lock() returns"),
        UNLOCK_REPLY("unlock script written", "holder reads its reply"),
        UNLOCK_RETURNS("release call", "holder's unlock() returns"),
        OBSERVED("release call", "a separate subscriber gets the message");

        final String from;
        final String to;

        Segment(String from, String to) {
            this.from = from;
            this.to = to;
        }
    }

    /** One read, write or park of a thread: when it began and ended (ns since the epoch), and the bytes moved. */
    private record Span(long start, long end, long bytes) {
    }

    private record Mark(long at, long thread, String what, String owner) {
    }

    /** How the handoffs of the recording came out: every segment's samples, in µs, and what was left out. */
    record Cut(Map<Segment, List<Double>> samples, int handoffs, int exactMessages, int waiterNotParked, int dropped) {
    }

    /** How long after a release call the separate subscriber's message still counts as this release's, in ns. */
    private static final long OBSERVED_WITHIN = 50_000_000;

    private final Map<Long, List<Span>> reads = new HashMap<>();
    private final Map<Long, List<Span>> writes = new HashMap<>();
    private final Map<Long, List<Span>> parks = new HashMap<>();
    private final Map<String, Long> threadByName = new HashMap<>();
    private final List<Mark> marks = new ArrayList<>();

    private HandoffTimeline() {
    }

    /** Reads the events of the recording at {@code file}. */
    static HandoffTimeline read(Path file) throws IOException {
        HandoffTimeline timeline = new HandoffTimeline();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                timeline.add(recording.readEvent());
            }
        }
        timeline.marks.sort(Comparator.comparingLong(Mark::at));
        for (Map<Long, List<Span>> spans : List.of(timeline.reads, timeline.writes, timeline.parks)) {
            spans.values().forEach(list -> list.sort(Comparator.comparingLong(Span::start)));
        }
        return timeline;
    }

    private void add(RecordedEvent event) {
        RecordedThread thread = event.getThread();
        if (thread == null) {
            return;
        }
        long id = thread.getJavaThreadId();
        threadByName.put(thread.getJavaName(), id);
        long start = nanos(event.getStartTime());
        long end = nanos(event.getEndTime());
        switch (event.getEventType().getName()) {
            case "jdk.SocketRead" -> reads.computeIfAbsent(id, t -> new ArrayList<>()).add(new Span(start, end, event.getLong("bytesRead")));
            case "jdk.SocketWrite" -> writes.computeIfAbsent(id, t -> new ArrayList<>()).add(new Span(start, end, event.getLong("bytesWritten")));
            case "jdk.ThreadPark" -> parks.computeIfAbsent(id, t -> new ArrayList<>()).add(new Span(start, end, 0));
            case "lockstep.HandoffMark" -> marks.add(new Mark(start, id, event.getString("what"), event.getString("owner")));
            default -> { }
        }
    }

    private static long nanos(Instant at) {
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }

    /**
     * Cuts every handoff to a thread that asked before the release. {@code subscriberThread} names
     * the thread that reads release messages for an owner's client; {@code messageBytes} is the size
     * of a release message to an owner, as it arrives on that thread's socket.
     */
    Cut cut(Function<String, String> subscriberThread, ToLongFunction<String> messageBytes) {
        Map<Segment, List<Double>> samples = new EnumMap<>(Segment.class);
        for (Segment segment : Segment.values()) {
            samples.put(segment, new ArrayList<>());
        }
        Map<Long, Long> askedAt = new HashMap<>();
        Mark release = null;
        int handoffs = 0;
        int exact = 0;
        int notParked = 0;
        int dropped = 0;
        for (Mark mark : marks) {
            switch (mark.what) {
                case HandoffMark.ASKED -> askedAt.put(mark.thread, mark.at);
                case HandoffMark.RELEASE -> release = mark;
                case HandoffMark.GRANTED -> {
                    Long asked = askedAt.remove(mark.thread);
                    if (release == null || asked == null || asked > release.at || mark.thread == release.thread) {
                        release = null;
                        continue;
                    }
                    handoffs++;
                    Points points = points(release, mark, subscriberThread.apply(mark.owner), messageBytes.applyAsLong(mark.owner));
                    release = null;
                    if (points == null) {
                        dropped++;
                        continue;
                    }
                    if (points.message >= 0) {
                        exact += points.exactMessage ? 1 : 0;
                        notParked += points.woken < 0 ? 1 : 0;
                    }
                    points.addTo(samples);
                }
                default -> { }
            }
        }
        return new Cut(samples, handoffs, exact, notParked, dropped);
    }

    /** The moments of one handoff, ns since the epoch; -1 where the recording does not show one. */
    private record Points(long call, long sent, long message, boolean exactMessage, long woken, long lockSent,
                          long grantRead, long nextWrite, long returned, long unlockReply, long unlockReturned, long observed) {

        void addTo(Map<Segment, List<Double>> samples) {
            add(samples, Segment.RELEASE_SENT, call, sent);
            add(samples, Segment.MESSAGE_READ, sent, message);
            add(samples, Segment.WAITER_WOKEN, message, woken);
            add(samples, Segment.LOCK_SENT, woken, lockSent);
            add(samples, Segment.GRANT_READ, lockSent, grantRead);
            add(samples, Segment.LOCK_RETURNS, grantRead, returned);
            add(samples, Segment.UNSUBSCRIBE_SENT, grantRead, nextWrite);
            add(samples, Segment.TOTAL, call, returned);
            add(samples, Segment.UNLOCK_REPLY, sent, unlockReply);
            add(samples, Segment.UNLOCK_RETURNS, call, unlockReturned);
            add(samples, Segment.OBSERVED, call, observed);
        }

        private static void add(Map<Segment, List<Double>> samples, Segment segment, long from, long to) {
            if (from >= 0 && to >= 0) {
                samples.get(segment).add((to - from) / 1_000.0);
            }
        }
    }

    /** The moments of the handoff from {@code release} to {@code grant}; null when they are out of order. */
    private Points points(Mark release, Mark grant, String subscriberName, long messageBytes) {
        long holder = release.thread;
        long waiter = grant.thread;
        long unlockReturned = markAfter(HandoffMark.RELEASED, holder, release.at);
        long observed = observedAfter(release.at, grant.owner);
        Span sent = firstStartingAfter(writes.get(holder), release.at);
        if (sent == null || sent.start > grant.at) {
            // No socket events for this client (Redisson's run on Netty): the marks alone.
            return new Points(release.at, -1, -1, false, -1, -1, -1, -1, grant.at, -1, unlockReturned, observed);
        }
        Span unlockReply = firstEndingAfter(reads.get(holder), sent.start);
        Long subscriber = threadByName.get(subscriberName);
        Span message = subscriber == null ? null : messageRead(reads.get(subscriber), sent.start, grant.at, messageBytes);
        if (message == null) {
            return null;
        }
        Span lockSent = firstStartingAfter(writes.get(waiter), message.end);
        Span grantRead = lockSent == null ? null : firstEndingAfter(reads.get(waiter), lockSent.start);
        if (lockSent == null || grantRead == null || grantRead.end > grant.at) {
            return null;
        }
        Span park = parkedAcross(parks.get(waiter), message.end, lockSent.start);
        Span nextWrite = firstStartingAfter(writes.get(waiter), grantRead.end);
        return new Points(release.at, sent.start, message.end, message.bytes == messageBytes, park == null ? -1 : park.end,
                park == null ? -1 : lockSent.start, grantRead.end,
                nextWrite == null || nextWrite.start > grant.at ? -1 : nextWrite.start, grant.at,
                unlockReply == null ? -1 : unlockReply.end, unlockReturned, observed);
    }

    /** The read that brought the release message: the first of exactly its size, else the first at all. */
    private static Span messageRead(List<Span> reads, long after, long before, long messageBytes) {
        int from = reads == null ? -1 : firstIndex(reads.size(), k -> reads.get(k).end >= after);
        Span first = null;
        for (int i = from; i >= 0 && i < reads.size() && reads.get(i).end <= before; i++) {
            Span read = reads.get(i);
            if (read.bytes == messageBytes) {
                return read;
            }
            first = first == null ? read : first;
        }
        return first;
    }

    /** The park the waiter was in when the message was read, ending before its lock script went out. */
    private static Span parkedAcross(List<Span> parks, long message, long lockSent) {
        Span park = firstEndingAfter(parks, message);
        return park != null && park.start <= message && park.end <= lockSent ? park : null;
    }

    /** A thread's spans follow one another, so their starts and their ends are both in order. */
    private static Span firstStartingAfter(List<Span> spans, long at) {
        int i = spans == null ? -1 : firstIndex(spans.size(), k -> spans.get(k).start >= at);
        return i < 0 ? null : spans.get(i);
    }

    private static Span firstEndingAfter(List<Span> spans, long at) {
        int i = spans == null ? -1 : firstIndex(spans.size(), k -> spans.get(k).end >= at);
        return i < 0 ? null : spans.get(i);
    }

    /** The first index below {@code size} where {@code test}, false before it and true after, holds; -1 if none. */
    private static int firstIndex(int size, IntPredicate test) {
        int low = 0;
        int high = size;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (test.test(middle)) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low < size ? low : -1;
    }

    /** The first mark of {@code thread} saying {@code what} at or after {@code at}; -1 if none. */
    private long markAfter(String what, long thread, long at) {
        for (int i = firstIndex(marks.size(), k -> marks.get(k).at >= at); i >= 0 && i < marks.size(); i++) {
            Mark mark = marks.get(i);
            if (mark.thread == thread && mark.what.equals(what)) {
                return mark.at;
            }
        }
        return -1;
    }

    /** When the separate subscriber got the next release message to {@code owner}, or -1. */
    private long observedAfter(long at, String owner) {
        for (int i = firstIndex(marks.size(), k -> marks.get(k).at >= at); i >= 0 && i < marks.size(); i++) {
            Mark mark = marks.get(i);
            if (mark.what.equals(HandoffMark.OBSERVED) && owner.equals(mark.owner)) {
                return mark.at;
            }
            if (mark.at > at + OBSERVED_WITHIN) {
                return -1;
            }
        }
        return -1;
    }

    /** The size of a RESP message {@code ["message", channel, payload]}, as a subscriber's socket reads it. */
    static long messageBytes(String channel, String payload) {
        return "*3\r\n$7\r\nmessage\r\n".length() + bulk(channel) + bulk(payload);
    }

    private static long bulk(String value) {
        int length = value.getBytes(StandardCharsets.UTF_8).length;
        return 1 + Integer.toString(length).length() + 2 + length + 2;
    }
}
