package dev.lockstep.testkit.history;

import dev.lockstep.testkit.history.History.Event;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The ANSI colours of a text timeline: the escape codes, and which one each event and owner is drawn in. */
final class TimelineStyle {

    static final String RESET = "\u001b[0m";
    static final String BOLD = "\u001b[1m";
    static final String DIM = "\u001b[2m";
    private static final String GREEN = "\u001b[32m";
    private static final String YELLOW = "\u001b[33m";
    private static final String MAGENTA = "\u001b[1;35m";
    private static final String CYAN = "\u001b[36m";
    /** Two clients inside at once, and the acquisition that broke a holder's lock: white on red. */
    static final String VIOLATION = "\u001b[1;97;41m";
    /** The {@code |} of a client that is inside while another one is too. */
    static final String CROWDED = "\u001b[1;31m";
    /** A node's key, in its owner's colour: the first client's blue, the second's green, and so on. */
    private static final String[] OWNER = {"\u001b[97;44m", "\u001b[30;42m", "\u001b[30;43m", "\u001b[97;45m",
        "\u001b[30;46m", "\u001b[30;47m"};

    private final List<String> clients;
    private final Set<Event> intruders = new HashSet<>();

    /** The styles for {@code history}'s {@code clients}; only with {@code ansi} are intrusions looked for. */
    TimelineStyle(History history, List<String> clients, boolean ansi) {
        this.clients = clients;
        if (ansi) {
            Checker.intrusions(history).forEach(i -> intruders.add(i.intruder()));
        }
    }

    /** The style of an event's label in its lane. */
    String of(Event e) {
        if (intruders.contains(e)) {
            return VIOLATION;
        }
        return switch (e.kind()) {
            case ACQUIRED, READ_LOCKED -> GREEN;
            case DENIED, UNLOCK_REFUSED, LOST -> YELLOW;
            case CRASH, FAULT -> MAGENTA;
            case EXPIRED, DELETED, RENEWED -> CYAN;
            case ENTER, EXIT, READ_ENTER, READ_EXIT, UNLOCK, NOTE, HELD, DOWN, FIXTURE -> null;
        };
    }

    /** The style of a node column showing {@code owner}'s key: a client's own colour, bold for anyone else. */
    String owner(String owner) {
        int index = clients.indexOf(owner);
        return index < 0 ? BOLD : OWNER[index % OWNER.length];
    }
}
