package dev.lockstep.testkit.history;

/**
 * Draws a {@link History} as text swimlanes, one row per event, at most {@value #COLUMNS} columns wide:
 * <ul>
 *   <li>after the time, {@code x2} (or {@code x3}) on every row where that many clients are inside at
 *       once (readers together are not);</li>
 *   <li>a lane per client, with {@code |} down it while that client is inside its critical section
 *       ({@code :} while it reads under a read lock), and a row where its lease ran out by its own clock;</li>
 *   <li>a narrow column per Redis node ({@code master}, {@code replica}, {@code n1..n5}) naming whom the
 *       node stores the lock's key for, {@code +} on a row where it was renewed;</li>
 *   <li>a {@code redis} lane for what Redis reports and the faults injected.</li>
 * </ul>
 * Events on the fixture's own keys are left out unless asked for. {@link #render(History, boolean)} can
 * add ANSI colours for a terminal: only escape codes around the same characters, so with the codes
 * stripped the text is exactly {@link #render(History)}'s.
 */
public final class Timeline {

    /** The widest a row gets. */
    public static final int COLUMNS = TimelineColumns.COLUMNS;

    private Timeline() {
    }

    /** The swimlanes of {@code history}, plain text. */
    public static String render(History history) {
        return render(history, false, false);
    }

    /** The swimlanes of {@code history}; with {@code ansi}, coloured for a terminal (see {@link #render(History, boolean, boolean)}). */
    public static String render(History history, boolean ansi) {
        return render(history, ansi, false);
    }

    /**
     * The swimlanes of {@code history}. With {@code ansi}, coloured for a terminal: the overlap marker
     * and the bars of the clients inside together in red, an acquisition made while another client held
     * the lock ({@link Checker#intrusions}) white on red, acquisitions green, refusals and losses yellow,
     * faults and crashes magenta, Redis's expiries and deletions cyan, each node's key in its owner's
     * colour. With {@code fixture}, the fixture's own key events too.
     */
    public static String render(History history, boolean ansi, boolean fixture) {
        return new TimelineDrawing(history, ansi, fixture).draw();
    }
}
