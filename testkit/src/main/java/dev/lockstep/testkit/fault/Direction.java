package dev.lockstep.testkit.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;

/**
 * One direction of one connection, until either side closes; then both close. Its reader sends
 * each chunk at once while no delay is set and nothing is in flight, and otherwise queues it
 * for the forwarder: so the chunks keep their order.
 */
final class Direction {

    /** A chunk read from one side, to be sent on at {@code dueNanos}. */
    private record Chunk(byte[] bytes, long dueNanos) {

        /** What the reader leaves last for the forwarder: the side it reads from is gone. */
        static final Chunk END = new Chunk(new byte[0], 0);
    }

    private final Socket from;
    private final Socket to;
    private final Pipe pipe;
    private final boolean replies;
    private final String name;
    private final LinkFaults faults;
    private final BiFunction<String, Runnable, Thread> newThread;
    private final ReentrantLock sending = new ReentrantLock();
    private final BlockingQueue<Chunk> inFlight = new LinkedBlockingQueue<>();
    /** Chunks queued or being sent by the forwarder, and whether it was started; guarded by {@link #sending}. */
    private int pending;
    private boolean forwarding;

    /**
     * Forwards what {@code from} sends to {@code to} ({@code replies}: the server's side to the client),
     * under {@code faults}; its forwarder thread, named {@code name-late}, comes from {@code newThread}.
     */
    Direction(Socket from, Socket to, Pipe pipe, boolean replies, String name, LinkFaults faults,
            BiFunction<String, Runnable, Thread> newThread) {
        this.from = from;
        this.to = to;
        this.pipe = pipe;
        this.replies = replies;
        this.name = name;
        this.faults = faults;
        this.newThread = newThread;
    }

    /** The reader. */
    void pump() {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            int n;
            while ((n = in.read(buffer)) != -1) {
                long delayNanos = faults.delay().toNanos();
                sending.lock();
                try {
                    if (delayNanos == 0 && pending == 0) {
                        send(buffer, n);
                    } else {
                        queue(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + delayNanos));
                    }
                } finally {
                    sending.unlock();
                }
            }
        } catch (IOException e) {
            // Peer gone, or the link was closed or healed: this connection is over.
        } finally {
            end();
        }
    }

    /** Closes the pipe now, or, when a forwarder runs, once it has sent what is in flight and ended. */
    private void end() {
        sending.lock();
        try {
            if (forwarding) {
                inFlight.add(Chunk.END);
            } else {
                pipe.close();
            }
        } finally {
            sending.unlock();
        }
    }

    /** Called with {@link #sending} held. */
    private void queue(Chunk chunk) {
        pending++;
        inFlight.add(chunk);
        if (!forwarding) {
            forwarding = true;
            newThread.apply(name + "-late", this::forward).start();
        }
    }

    /** The forwarder: sends each queued chunk once it is due. */
    private void forward() {
        try {
            for (Chunk chunk = inFlight.take(); chunk != Chunk.END; chunk = inFlight.take()) {
                long early = chunk.dueNanos() - System.nanoTime();
                if (early > 0 && pipe.awaitClosed(early)) {
                    return;
                }
                sending.lock();
                try {
                    send(chunk.bytes(), chunk.bytes().length);
                    pending--;
                } finally {
                    sending.unlock();
                }
            }
        } catch (IOException | InterruptedException e) {
            // Peer gone, or the link was closed: this connection is over.
        } finally {
            pipe.close();
        }
    }

    private void send(byte[] bytes, int length) throws IOException {
        if (!replies && !pipe.subscribed && subscribes(bytes, length)) {
            pipe.subscribed = true;
            pipe.frozen = faults.freezingNewSubscribers();
        }
        if (pipe.frozen || faults.dropped(pipe, replies)) {
            return;
        }
        if (replies) {
            pipe.toClient(bytes, 0, length);
        } else {
            OutputStream out = to.getOutputStream();
            out.write(bytes, 0, length);
            out.flush();
        }
    }

    /** Whether a client's chunk carries a SUBSCRIBE command (Jedis writes command names in upper case). */
    private static boolean subscribes(byte[] buffer, int length) {
        return new String(buffer, 0, length, StandardCharsets.ISO_8859_1).contains("SUBSCRIBE\r\n");
    }
}
