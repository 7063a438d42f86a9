package dev.lockstep.testkit.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Stage x scenario cells, as a Markdown table: {@code | stage | <scenario ids...> |}. */
public final class Scoreboard {

    private final Map<String, Map<String, Outcome.Cell>> rows = new LinkedHashMap<>();
    private final Set<String> columns = new LinkedHashSet<>();

    /** Adds one outcome's cell. */
    public synchronized void add(Outcome outcome) {
        add(outcome.stage().name(), outcome.scenario().id(), outcome.cell());
    }

    /** Adds a cell. */
    public synchronized void add(String stage, String scenario, Outcome.Cell cell) {
        columns.add(scenario);
        rows.computeIfAbsent(stage, s -> new LinkedHashMap<>()).put(scenario, cell);
    }

    /** Orders the columns as {@code ids} (others follow in insertion order). */
    public synchronized void orderColumns(List<String> ids) {
        List<String> ordered = new ArrayList<>(ids.stream().filter(columns::contains).toList());
        columns.stream().filter(c -> !ordered.contains(c)).forEach(ordered::add);
        columns.clear();
        columns.addAll(ordered);
    }

    /** Whether any cell is {@code FAILED}. */
    public synchronized boolean anyFailed() {
        return rows.values().stream().anyMatch(r -> r.containsValue(Outcome.Cell.FAILED));
    }

    /** The table. */
    public synchronized String markdown() {
        StringBuilder out = new StringBuilder("| stage |");
        columns.forEach(c -> out.append(' ').append(c).append(" |"));
        out.append("\n|---|");
        columns.forEach(c -> out.append("---|"));
        out.append('\n');
        rows.forEach((stage, cells) -> {
            out.append("| ").append(stage).append(" |");
            columns.forEach(c -> out.append(' ').append(Objects.toString(cells.get(c), "n/a")).append(" |"));
            out.append('\n');
        });
        return out.toString();
    }

    /** Writes the table to {@code file}, creating its folder. */
    public void write(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, markdown());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
