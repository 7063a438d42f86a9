package dev.lockstep.testkit.history;

/**
 * Text in one column of a text timeline, the ANSI style it is drawn in (null: the terminal's default),
 * and what its continuation rows show: a client's bar, or the owner a node stores the key for.
 */
record TimelineCell(String text, String style, String carried) {

    /** Down a client's lane while it is inside its critical section. */
    static final String INSIDE = "|";
    /** Down a client's lane while it reads under a read lock. */
    static final String READING = ":";
    /** After an owner in a node column, on a row where the node renewed the key. */
    static final String RENEWED = "+";

    static final TimelineCell EMPTY = new TimelineCell("", null, "");

    TimelineCell(String text, String style) {
        this(text, style, "");
    }

    /** Whether the continuation rows carry a client's bar on, rather than a node's owner. */
    boolean carriesBar() {
        return carried.equals(INSIDE) || carried.equals(READING);
    }
}
