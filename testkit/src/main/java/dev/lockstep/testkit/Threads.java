package dev.lockstep.testkit;

import java.util.List;

/** The JVM's live threads, for tests that prove nothing was left running. */
public final class Threads {

    private Threads() {
    }

    /** The names of the live threads whose names start with {@code prefix}. */
    public static List<String> named(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith(prefix))
                .toList();
    }
}
