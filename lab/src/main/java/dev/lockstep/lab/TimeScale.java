package dev.lockstep.lab;

import dev.lockstep.testkit.history.History.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * Time along a timeline: from {@code t0} to {@code t1} milliseconds, whole ticks of {@code step}
 * milliseconds that take in every event, spread over the plot's width.
 *
 * @param t0   the first tick, in ms
 * @param t1   the last tick, in ms
 * @param step the distance between ticks, in ms
 */
record TimeScale(double t0, double t1, double step) {

    /** A history shorter than this, in ms, is drawn over this span. */
    private static final double SHORTEST_SPAN = 20;
    /** The span drawn when there are no events, in ms. */
    private static final double EMPTY_SPAN = 100;
    /** The most pieces the ticks cut the span into. */
    private static final int MAX_TICKS = 12;

    /** A tick: its time in ms and its x. */
    record Tick(double millis, double x) {
    }

    /** The scale that takes in {@code events}, which are in time order. */
    static TimeScale of(List<Event> events) {
        double first = events.isEmpty() ? 0 : events.get(0).at() / 1e6;
        double last = events.isEmpty() ? EMPTY_SPAN : events.get(events.size() - 1).at() / 1e6;
        double step = niceStep(Math.max(last - first, SHORTEST_SPAN));
        double t0 = Math.floor(first / step) * step;
        return new TimeScale(t0, Math.max(Math.ceil(last / step) * step, t0 + step), step);
    }

    /** The x of a moment {@code nanos} after the history began. */
    double x(double nanos) {
        return TimelineLayout.LEFT + (nanos / 1e6 - t0) / (t1 - t0) * TimelineLayout.PLOT;
    }

    /** Every tick from {@code t0} to {@code t1}. */
    List<Tick> ticks() {
        List<Tick> ticks = new ArrayList<>();
        // Summed step by step, as the pictures in docs/results were: t0 + i * step rounds differently.
        for (double t = t0; t <= t1 + step / 2; t += step) {
            ticks.add(new Tick(t, x(t * 1e6)));
        }
        return ticks;
    }

    /** A tick step of 1, 2 or 5 times a power of ten that cuts {@code span} ms into at most 12 pieces. */
    static double niceStep(double span) {
        double power = Math.pow(10, Math.floor(Math.log10(span / MAX_TICKS)));
        for (double factor : new double[] {1, 2, 5, 10}) {
            if (span / (factor * power) <= MAX_TICKS) {
                return factor * power;
            }
        }
        return 10 * power;
    }
}
