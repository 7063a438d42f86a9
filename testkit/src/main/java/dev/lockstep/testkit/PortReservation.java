package dev.lockstep.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A loopback port a node keeps for its whole life, across kills and restarts on it, reserved for
 * every JVM on the machine: test JVMs start and kill servers side by side, and a port freed by a
 * kill must not be taken by another JVM's server before the restart, nor reached by a client that
 * still dials it. The reservation is a lock on the port's byte of one file in the temporary
 * directory, so the operating system ends it when the JVM dies, however it dies.
 *
 * <p>Ports come from below the kernel's ephemeral range (Linux 32768-60999, macOS 49152-65535), so
 * no client socket and no bind to port 0 is handed one.
 */
final class PortReservation implements AutoCloseable {

    private static final int FIRST_PORT = 20000;
    private static final int EPHEMERAL_PORTS = 32768;
    /** Redis 6 puts a cluster node's bus on port + 10000; it is reserved with the port. */
    private static final int CLUSTER_BUS_OFFSET = 10000;
    private static final FileChannel RESERVATIONS = open(Path.of(System.getProperty("java.io.tmpdir"),
            "lockstep-ports-" + System.getProperty("user.name") + ".lock"));

    private final int port;
    private final List<FileLock> locks;

    private PortReservation(int port, List<FileLock> locks) {
        this.port = port;
        this.locks = locks;
    }

    /** A free port nobody has reserved, with its cluster bus port when {@code cluster}; the caller closes it. */
    static PortReservation any(String host, boolean cluster) {
        while (true) {
            int candidate = ThreadLocalRandom.current().nextInt(FIRST_PORT, EPHEMERAL_PORTS);
            List<Integer> ports = cluster ? List.of(candidate, candidate + CLUSTER_BUS_OFFSET) : List.of(candidate);
            List<FileLock> locks = new ArrayList<>();
            for (int port : ports) {
                FileLock lock = reserve(port);
                if (lock == null || !isFree(host, port)) {
                    release(lock);
                    break;
                }
                locks.add(lock);
            }
            if (locks.size() == ports.size()) {
                return new PortReservation(candidate, locks);
            }
            locks.forEach(PortReservation::release);
        }
    }

    /** The reserved port. */
    int port() {
        return port;
    }

    /** Ends the reservation: another node may take the port. */
    @Override
    public void close() {
        locks.forEach(PortReservation::release);
    }

    private static FileLock reserve(int port) {
        try {
            return RESERVATIONS.tryLock(port, 1, false);
        } catch (OverlappingFileLockException e) {
            return null; // this JVM holds it
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reserve port " + port, e);
        }
    }

    private static void release(FileLock lock) {
        if (lock == null) {
            return;
        }
        try {
            lock.release();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot end the reservation of port " + lock.position(), e);
        }
    }

    private static boolean isFree(String host, int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(host))) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static FileChannel open(Path file) {
        try {
            return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + " to reserve ports", e);
        }
    }
}
