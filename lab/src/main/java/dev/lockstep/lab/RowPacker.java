package dev.lockstep.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * Stacks spans along one axis into rows so that none overlaps another in its row: each span goes on
 * the lowest row whose last span ends at least {@value #GAP} px before it starts. Labels over a lane
 * and captions over the red bands are packed this way.
 */
final class RowPacker {

    /** The least room between two spans in one row, in px. */
    private static final double GAP = 6;

    private final List<Double> ends = new ArrayList<>();

    /** The row that takes the span from {@code from} to {@code to}; the span then ends that row. */
    int place(double from, double to) {
        int row = 0;
        while (row < ends.size() && ends.get(row) + GAP > from) {
            row++;
        }
        if (row == ends.size()) {
            ends.add(to);
        } else {
            ends.set(row, to);
        }
        return row;
    }

    /** How many rows the spans placed so far take. */
    int rows() {
        return ends.size();
    }
}
