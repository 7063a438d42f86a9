package dev.lockstep.testkit.fault;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/** One proxied connection: closing either socket ends both pump threads. */
final class Pipe {

    private final Socket client;
    private final Socket upstream;
    private final Consumer<Pipe> onClose;
    /** Whether a fault dropped bytes that crossed it: a stream with a hole, reset on heal. */
    volatile boolean lostBytes;
    /** Whether the client has sent a SUBSCRIBE through it. */
    volatile boolean subscribed;
    /** Whether nothing crosses it any more, in either direction. */
    volatile boolean frozen;
    /** Counted down once closed: wakes forwarders waiting out a delay. */
    private final CountDownLatch closed = new CountDownLatch(1);

    /** Replies and stray replies reach the client whole, one at a time. */
    private final ReentrantLock writingToClient = new ReentrantLock();

    /** A connection from {@code client} to {@code upstream}; {@code onClose} hears when it is closed. */
    Pipe(Socket client, Socket upstream, Consumer<Pipe> onClose) {
        this.client = client;
        this.upstream = upstream;
        this.onClose = onClose;
    }

    /** Writes to the client; a failure closes the connection, as the pump's own would. */
    void toClient(byte[] bytes, int offset, int length) {
        writingToClient.lock();
        try {
            OutputStream out = client.getOutputStream();
            out.write(bytes, offset, length);
            out.flush();
        } catch (IOException e) {
            close();
        } finally {
            writingToClient.unlock();
        }
    }

    /** Waits up to {@code nanos} for the connection to close; whether it did. */
    boolean awaitClosed(long nanos) throws InterruptedException {
        return closed.await(nanos, TimeUnit.NANOSECONDS);
    }

    void close() {
        closed.countDown();
        onClose.accept(this);
        closeQuietly(client);
        closeQuietly(upstream);
    }

    static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Already closed or broken: either way it is gone.
        }
    }
}
