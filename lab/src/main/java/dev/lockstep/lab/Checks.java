package dev.lockstep.lab;

import java.io.PrintWriter;

/** {@code lab check}'s checks, each printed as it passes or fails. */
final class Checks {

    private final PrintWriter out;
    private String note = "";

    /** Checks that print to {@code out}. */
    Checks(PrintWriter out) {
        this.out = out;
    }

    /** Runs the check {@code what} and prints how it went; true when it passed. */
    boolean step(String what, Step step) {
        note = "";
        try {
            step.run();
            out.printf("  ok    %s%s%n", what, note.isEmpty() ? "" : " " + note);
            return true;
        } catch (Exception e) {
            out.printf("  FAIL  %s: %s: %s%n", what, e.getClass().getSimpleName(), e.getMessage());
            return false;
        } finally {
            out.flush();
        }
    }

    /** Adds {@code text} to the running check's line, if it passes. */
    void note(String text) {
        note = text;
    }

    /** Fails the running check with {@code otherwise} unless {@code condition} holds. */
    static void require(boolean condition, String otherwise) {
        if (!condition) {
            throw new IllegalStateException(otherwise);
        }
    }

    /** A check's body: it fails by throwing. */
    @FunctionalInterface
    interface Step {

        /** Runs the check. */
        void run() throws Exception;
    }
}
