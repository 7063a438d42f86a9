package dev.lockstep.lab;

/**
 * One run of text in a timeline label, set in one colour: a thread's name, an event's words, a step
 * name, the holder an intruder walked past.
 *
 * @param text   what it says
 * @param colour its fill, e.g. {@code #202124}
 * @param bold   whether it is set bold
 */
record Part(String text, String colour, boolean bold) {

    /** A part in regular weight. */
    static Part plain(String text, String colour) {
        return new Part(text, colour, false);
    }

    /** A part set bold. */
    static Part bold(String text, String colour) {
        return new Part(text, colour, true);
    }
}
