package dev.lockstep.testkit.fault;

import java.io.IOException;
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
import redis.clients.jedis.HostAndPort;

/**
 * A loopback TCP proxy in front of one Redis node that can cut or slow the traffic through it:
 * a partition of whoever connects through it, and of no one else.
 *
 * <p>Each accepted connection gets two daemon threads, one per direction, doing blocking
 * read-then-forward; faults are decided per chunk, so they apply to open and new connections alike.
 * While a delay is set, a direction that meets it also gets a forwarder thread: the reader stamps
 * each chunk with the moment it may go on, and the forwarder sends it then. So a delay is a lag,
 * as on a long wire: a chunk that arrives while another waits out its delay does not wait a full
 * delay more.
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
    private final LinkFaults faults = new LinkFaults();
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
    public void blackhole() {
        faults.blackhole();
    }

    /**
     * Forwards requests but drops every reply, until {@link #heal()}: the server runs what it is
     * asked, and the client never hears that it did (a reply lost on the way back).
     */
    public void loseReplies() {
        faults.loseReplies();
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
        faults.freezeNewSubscribers();
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

    /** Forwards each chunk {@code delay} after it arrived (a lag each way), keeping the order per direction. */
    public void delay(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        faults.delay(delay);
    }

    /**
     * Closes every connection open through the link now, as a restarted proxy or a server's idle
     * timeout would; new connections go through as before. A client finds out only when it next
     * uses one of them, and that call fails.
     */
    public void resetConnections() {
        pipes.forEach(Pipe::close);
    }

    /**
     * Back to plain forwarding, also for new subscribers; connections that lost bytes while
     * blackholed are reset, and frozen ones stay frozen.
     */
    public void heal() {
        faults.heal(pipes);
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
        Pipe.closeQuietly(server);
        // Pipes are created by the accept thread only: once it has ended, the set is final.
        join(acceptor, System.nanoTime() + JOIN_TIMEOUT.toNanos());
        pipes.forEach(Pipe::close);
        threads.forEach(Thread::interrupt); // wakes forwarders waiting for a chunk
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
                Pipe.closeQuietly(client);
                Pipe.closeQuietly(upstream);
                continue;
            }
            Pipe pipe = new Pipe(client, upstream, pipes::remove);
            pipes.add(pipe);
            int n = connections.incrementAndGet();
            Direction up = new Direction(client, upstream, pipe, false, n + "-up", faults, this::newThread);
            Direction down = new Direction(upstream, client, pipe, true, n + "-down", faults, this::newThread);
            newThread(n + "-up", up::pump).start();
            newThread(n + "-down", down::pump).start();
        }
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
}
