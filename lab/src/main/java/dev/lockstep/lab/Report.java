package dev.lockstep.lab;

import dev.lockstep.testkit.history.Timeline;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.scenario.Outcome.Cell;

/**
 * One outcome as the lab prints it. Plain, it is {@link Outcome#report(boolean)} word for word (plus the
 * T1..T6 steps under the foreign-unlock story); in colour, the same lines with the cell, the
 * timeline's violation rows and the verdict painted.
 */
final class Report {

    private Report() {
    }

    /** The report of {@code outcome}, coloured when {@code colour}, its fixture's key events shown when {@code fixture}. */
    static String of(Outcome outcome, boolean colour, boolean fixture) {
        String steps = Steps.text(Steps.of(outcome));
        String tail = steps.isEmpty() ? "" : "\n" + steps;
        if (!colour || outcome.cell() == Cell.NOT_APPLICABLE) {
            return outcome.report(fixture) + tail;
        }
        StringBuilder out = new StringBuilder();
        out.append(Colour.BOLD).append(outcome.stage().name()).append(" / ").append(outcome.scenario().id())
                .append(Colour.RESET).append(": ").append(cell(outcome.cell(), true))
                .append(outcome.claimed() ? " (claims " : " (does not claim ").append(outcome.scenario().guarantee())
                .append(")\n");
        out.append(outcome.scenario().story()).append("\n\n");
        out.append(Timeline.render(outcome.history(), true, fixture)).append('\n');
        if (outcome.cell() == Cell.NOT_PLAYED) {
            out.append(Colour.paint(true, Colour.DIM, "Not played: ")).append(outcome.error().getMessage())
                    .append(", in each of ").append(Outcome.PLAYS).append(" plays on fresh servers; this machine was too slow"
                    + " to set the story up\n");
        } else if (outcome.error() != null) {
            out.append(Colour.paint(true, Colour.RED, "The run broke: ")).append(outcome.error()).append('\n');
        } else if (outcome.verdict().violated()) {
            out.append(Colour.paint(true, Colour.RED, "VIOLATION: " + outcome.verdict().explanation())).append('\n');
        } else {
            out.append(Colour.paint(true, Colour.GREEN, "OK: ")).append(outcome.verdict().explanation()).append('\n');
        }
        return out + tail;
    }

    /** A scoreboard cell's word, painted when {@code colour}: prevented green, reproduced yellow, FAILED red. */
    static String cell(Cell cell, boolean colour) {
        String style = switch (cell) {
            case PREVENTED -> Colour.GREEN;
            case REPRODUCED -> Colour.YELLOW;
            case FAILED -> Colour.RED;
            case NOT_PLAYED, NOT_APPLICABLE -> Colour.DIM;
        };
        return Colour.paint(colour, style, cell.toString());
    }
}
