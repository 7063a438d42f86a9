package dev.lockstep.lab;

import java.util.ArrayList;
import java.util.List;

/** The legend under a timeline picture: a key per kind of mark, left to right, in rows as wide as the picture. */
final class Legend {

    /** Where the rows start and restart. */
    private static final double START = 24;
    /** A key running past this x starts a new row. */
    private static final double END = TimelineLayout.WIDTH - 16;
    /** The advance of one character of a key's text, at its 11 px font. */
    private static final double CHAR = 6.4;
    /** The distance between rows. */
    private static final int ROW = 20;

    private Legend() {
    }

    /** One key: its words and the mark they explain. */
    enum Key {
        /** A critical section's bar. */
        BAR("inside the critical section", true),
        /** The dotted line of a lock call's wait. */
        WAIT("waiting for the lock", true),
        /** A node's bar in the key's owner's colour. */
        HOLD("the key on a node, in its owner's colour", true),
        /** A renewal's tick. */
        RENEWAL("renewed", false),
        /** The dashed line of a lease running out. */
        DEADLINE("lease over by the holder's clock", false),
        /** An acquisition. */
        ACQUIRED("locked", false),
        /** A lock call that gave up. */
        DENIED("gave up", false),
        /** An unlock. */
        UNLOCK("unlock", false),
        /** A refused unlock. */
        REFUSED("unlock refused", false),
        /** A holder told it lost the lock. */
        LOST("told: lease lost", false),
        /** A key's expiry. */
        EXPIRED("key expired", false),
        /** A key's deletion. */
        DELETED("key deleted", false),
        /** An injected fault. */
        FAULT("fault injected", false),
        /** A crash. */
        CRASH("crash", false),
        /** A red band. */
        BAND("two clients inside at once", true),
        /** The violation's ring. */
        RING("the violation", false);

        private final String text;
        private final boolean wide;

        Key(String text, boolean wide) {
            this.text = text;
            this.wide = wide;
        }

        /** The key's words. */
        String text() {
            return text;
        }

        /** The room its mark takes before the words: a bar or a line needs more than a dot. */
        int markWidth() {
            return wide ? 26 : 16;
        }
    }

    /** A key and where its mark starts: {@code x}, and {@code y} the middle of its row. */
    record Placed(Key key, double x, int y) {
    }

    /** Every key, the first row at {@code y}. */
    static List<Placed> place(int y) {
        List<Placed> placed = new ArrayList<>();
        double x = START;
        int row = y;
        for (Key key : Key.values()) {
            double width = key.markWidth() + key.text().length() * CHAR + 18;
            if (x + width > END) {
                x = START;
                row += ROW;
            }
            placed.add(new Placed(key, x, row));
            x += width;
        }
        return placed;
    }
}
