package dev.lockstep.lab;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * Whether the lab colours what it prints. {@code auto} (the default) colours only a terminal: not a
 * pipe, not a file, not a test's captured output, so piped text stays plain and stable.
 */
final class Colour {

    static final String RESET = "\u001b[0m";
    static final String BOLD = "\u001b[1m";
    static final String RED = "\u001b[1;31m";
    static final String GREEN = "\u001b[32m";
    static final String YELLOW = "\u001b[33m";
    static final String DIM = "\u001b[2m";

    /** The {@code --color} choices. */
    enum Mode {
        /** Colour when standard output is a terminal and {@code NO_COLOR} is not set. */
        AUTO,
        /** Always colour, e.g. for {@code less -R}. */
        ALWAYS,
        /** Never colour. */
        NEVER
    }

    private Colour() {
    }

    /** Whether {@code mode} colours this process's standard output. */
    static boolean enabled(Mode mode) {
        return enabled(mode, isTerminal(System.console()), System.getenv());
    }

    /**
     * Whether {@code mode} colours an output that is ({@code terminal}) or is not a terminal, given
     * the environment {@code env}: {@code auto} needs a terminal, no {@code NO_COLOR} (no-color.org)
     * and a {@code TERM} other than {@code dumb}.
     */
    static boolean enabled(Mode mode, boolean terminal, Map<String, String> env) {
        return switch (mode) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> terminal && isBlank(env.get("NO_COLOR")) && !"dumb".equals(env.get("TERM"));
        };
    }

    /**
     * Whether {@code console} is an interactive terminal. Up to Java 21 the JVM has a console only when
     * standard input and output are both terminals. From Java 22 it may have one anyway, and
     * {@code Console.isTerminal()} tells (called reflectively, as this code is compiled for 17).
     */
    static boolean isTerminal(Console console) {
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /** {@code text} in {@code style} when {@code on}, else {@code text} unchanged. */
    static String paint(boolean on, String style, String text) {
        return on ? style + text + RESET : text;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isEmpty();
    }
}
