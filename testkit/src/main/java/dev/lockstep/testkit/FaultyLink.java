package dev.lockstep.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import redis.clients.jedis.HostAndPort;

/**
 * A loopback TCP proxy in front of one Redis node that can cut or slow the traffic through it:
 * a partition of whoever connects through it, and of no one else.
 *
 * <p>Each accepted connection gets two daemon threads, one per direction, doing blocking
 * read-then-forward; faults are decided per chunk, so they apply to open and new connections alike.
 */
public final class FaultyLink implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final int CONNECT_TIMEOUT_MILLIS = 1000;
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(5);

    private final HostAndPort target;
    private final ServerSocket server;
    private final String threadPrefix;
    private final Set<Pipe> pipes = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();
    private final Thread acceptor;
    private volatile boolean blackholed;
    private volatile boolean losingReplies;
    private volatile boolean freezingNewSubscribers;
    private volatile Duration delay = Duration.ZERO;
    private volatile boolean closed;

    private FaultyLink(HostAndPort target, ServerSocket server) {
        this.target = target;
        this.server = server;
        this.threadPrefix = "lockstep-faultylink-" + server.getLocalPort() + "-";
        this.acceptor = newThread("accept", this::acceptLoop);
    }

    /** Starts a proxy on a free loopback port that forwards every connection to {@code target}. */
    public static FaultyLink to(HostAndPort target) {
        ServerSocket server;
        try {
            server = new ServerSocket(0, 50, InetAddress.getByName(HOST));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a FaultyLink listener", e);
        }
        FaultyLink link = new FaultyLink(target, server);
        link.acceptor.start();
        return link;
    }

    /** Where clients connect instead of the target. */
    public HostAndPort address() {
        return new HostAndPort(HOST, server.getLocalPort());
    }

    /**
     * Silently drops every byte in both directions, on open and new connections, until
     * {@link #heal()}: to the peers every connection is half-open, alive but silent.
     */
    public synchronized void blackhole() {
        blackholed = true;
    }

    /**
     * Forwards requests but drops every reply, until {@link #heal()}: the server runs what it is
     * asked, and the client never hears that it did (a reply lost on the way back).
     */
    public synchronized void loseReplies() {
        losingReplies = true;
    }

    /**
     * Freezes every open connection that has subscribed to a channel: from now on nothing crosses
     * it in either direction, and it is never closed (a half-open connection whose peer vanished
     * without a FIN or RST). Other connections, and new ones, are not touched; {@link #heal()}
     * does not thaw it.
     */
    public void freezeSubscribers() {
        pipes.stream().filter(pipe -> pipe.subscribed).forEach(pipe -> pipe.frozen = true);
    }

    /**
     * {@link #freezeSubscribers()}, and until {@link #heal()} also every connection that sends a
     * SUBSCRIBE, before the SUBSCRIBE reaches Redis: a subscription is never confirmed.
     */
    public void freezeEverySubscriber() {
        freezingNewSubscribers = true;
        freezeSubscribers();
    }

    /**
     * Sends {@code reply} (raw RESP, such as {@code "+PONG\r\n"}) to every client that has
     * subscribed, as if Redis had: a reply to nothing the client asked, which a pub/sub read loop
     * cannot place. Jedis 8 meets one when a PONG outruns the handler of its PING.
     */
    public void strayReplyToSubscribers(String reply) {
        byte[] bytes = reply.getBytes(StandardCharsets.ISO_8859_1);
        pipes.stream().filter(pipe -> pipe.subscribed).forEach(pipe -> pipe.toClient(bytes, 0, bytes.length));
    }

    /** Forwards each chunk only {@code delay} after it was read, keeping the order per direction. */
    public void delay(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        this.delay = delay;
    }

    /**
     * Back to plain forwarding, also for new subscribers; connections that lost bytes while
     * blackholed are reset, and frozen ones stay frozen.
     */
    public synchronized void heal() {
        freezingNewSubscribers = false;
        blackholed = false;
        losingReplies = false;
        delay = Duration.ZERO;
        // A TCP stream with a hole in it never happens on a real network: the peers would either get
        // the bytes late (retransmission) or lose the connection. Forwarding again after a hole would
        // silently desync a replica (it keeps counting offsets over missing writes and never asks for
        // a resync), so such connections are reset: peers reconnect, and a replica PSYNCs what it lacks.
        pipes.stream().filter(pipe -> pipe.lostBytes).forEach(Pipe::close);
    }

    /** Closes the listener and every connection, and ends every thread this link started. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        closeQuietly(server);
        // Pipes are created by the accept thread only: once it has ended, the set is final.
        join(acceptor, System.nanoTime() + JOIN_TIMEOUT.toNanos());
        pipes.forEach(Pipe::close);
        threads.forEach(Thread::interrupt); // wakes pumps sleeping out a delay
        long deadline = System.nanoTime() + JOIN_TIMEOUT.toNanos();
        threads.forEach(thread -> join(thread, deadline));
    }

    @Override
    public String toString() {
        return "FaultyLink(" + address() + " -> " + target + ")";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // listener closed by close()
            }
            // Forget finished connections so a long test does not accumulate dead threads.
            threads.removeIf(thread -> !thread.isAlive());
            Socket upstream = new Socket();
            try {
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                upstream.connect(new InetSocketAddress(target.getHost(), target.getPort()), CONNECT_TIMEOUT_MILLIS);
            } catch (IOException e) {
                // Target down: the client sees its connection closed, as with a dead server.
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            Pipe pipe = new Pipe(client, upstream);
            pipes.add(pipe);
            int n = connections.incrementAndGet();
            newThread(n + "-up", () -> pump(client, upstream, pipe, false)).start();
            newThread(n + "-down", () -> pump(upstream, client, pipe, true)).start();
        }
    }

    /** Copies one direction of one connection until either side closes; then closes both. */
    private void pump(Socket from, Socket to, Pipe pipe, boolean replies) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) != -1) {
                long delayNanos = delay.toNanos();
                if (delayNanos > 0) {
                    // Sleeping in the reader keeps the order and adds at least the delay to each chunk.
                    TimeUnit.NANOSECONDS.sleep(delayNanos);
                }
                if (!replies && !pipe.subscribed && subscribes(buffer, n)) {
                    pipe.subscribed = true;
                    pipe.frozen = freezingNewSubscribers;
                }
                if (pipe.frozen || dropped(pipe, replies)) {
                    continue;
                }
                if (replies) {
                    pipe.toClient(buffer, 0, n);
                } else {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException | InterruptedException e) {
            // Peer gone, or the link was closed or healed: this connection is over.
        } finally {
            pipe.close();
        }
    }

    /** Whether this chunk is lost; atomic with {@link #heal()} so no hole goes unnoticed. */
    private synchronized boolean dropped(Pipe pipe, boolean replies) {
        boolean lost = blackholed || (replies && losingReplies);
        if (lost) {
            pipe.lostBytes = true;
        }
        return lost;
    }

    /** Whether a client's chunk carries a SUBSCRIBE command (Jedis writes command names in upper case). */
    private static boolean subscribes(byte[] buffer, int length) {
        return new String(buffer, 0, length, StandardCharsets.ISO_8859_1).contains("SUBSCRIBE\r\n");
    }

    /** A daemon thread that {@link #close()} will end and join. */
    private Thread newThread(String suffix, Runnable body) {
        Thread thread = new Thread(body, threadPrefix + suffix);
        thread.setDaemon(true);
        threads.add(thread);
        return thread;
    }

    private static void join(Thread thread, long deadlineNanos) {
        try {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            throw new IllegalStateException(thread.getName() + " did not end within " + JOIN_TIMEOUT);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Already closed or broken: either way it is gone.
        }
    }

    /** One proxied connection: closing either socket ends both pump threads. */
    private final class Pipe {
        private final Socket client;
        private final Socket upstream;
        private volatile boolean lostBytes;
        private volatile boolean subscribed;
        private volatile boolean frozen;

        /** Replies and {@link #strayReplyToSubscribers stray replies} reach the client whole, one at a time. */
        private final ReentrantLock writingToClient = new ReentrantLock();

        Pipe(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
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

        void close() {
            pipes.remove(this);
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }
}
