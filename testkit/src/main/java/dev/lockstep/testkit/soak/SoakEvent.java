package dev.lockstep.testkit.soak;

/**
 * One line of a soak worker's output: {@code soak> NANOS SINCE ACTOR KIND LOCK DETAIL}, where
 * NANOS is when it happened and SINCE when the call it reports began, both {@code System.nanoTime()}.
 *
 * @param at     when, by the machine's monotonic clock
 * @param since  when the call began (lock and unlock calls), else {@code at}
 * @param actor  {@code client/threadId}, or the client for its own events
 * @param kind   what
 * @param lock   the lock's name, or {@code -}
 * @param detail a few words
 */
record SoakEvent(long at, long since, String actor, Kind kind, String lock, String detail) {

    static final String PREFIX = "soak> ";
    /** The detail of a {@link Kind#FORCED} event whose forceUnlock found nothing to delete. */
    static final String NOTHING_FORCED = "nothing held";

    /** What a line reports. */
    enum Kind {
        READY, ACQUIRED, DENIED, ERROR, ENTER, EXIT, UNLOCKED, UNLOCK_FAILED, LOST, STOPPED, CRASHED,
        /** A re-entry of a hold the worker has: granted, or not (detail). */
        REENTERED,
        /** A worker deleted a lock whoever held it ({@code forceUnlock}): its holder is inside until told. */
        FORCED,
        /** A worker's wait was interrupted by a sibling thread: it holds nothing. */
        INTERRUPTED
    }

    /** Prints an event that happened now. */
    static void print(String actor, Kind kind, String lock, String detail) {
        print(actor, kind, lock, System.nanoTime(), detail);
    }

    /** Prints an event that happened now, reporting a call that began at {@code since}. */
    static void print(String actor, Kind kind, String lock, long since, String detail) {
        String line = PREFIX + System.nanoTime() + " " + since + " " + actor + " " + kind + " " + lock + " "
                + (detail == null ? "" : detail.replace('\n', ' '));
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** Reads a line {@link #print} wrote, without its {@link #PREFIX}. */
    static SoakEvent parse(String line) {
        String[] words = line.split(" ", 6);
        return new SoakEvent(Long.parseLong(words[0]), Long.parseLong(words[1]), words[2], Kind.valueOf(words[3]),
                words[4], words.length > 5 ? words[5] : "");
    }
}
