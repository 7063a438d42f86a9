package dev.lockstep.testkit.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/** POSIX signals the JDK has no API for: SIGSTOP and SIGCONT, sent with {@code kill}. */
public final class Signals {

    private Signals() {
    }

    /** Freezes {@code process}: a real stop-the-world pause, sockets open, nothing answered. */
    public static void stop(Process process) {
        send(process, "STOP");
    }

    /** Thaws a {@link #stop stopped} process. */
    public static void resume(Process process) {
        send(process, "CONT");
    }

    private static void send(Process process, String signal) {
        if (!process.isAlive()) {
            throw new IllegalStateException("process " + process.pid() + " is not running");
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal + " to " + process.pid(), e);
        }
    }
}
