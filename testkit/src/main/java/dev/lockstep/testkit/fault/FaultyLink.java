package dev.lockstep.testkit.fault;

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
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
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

    /** Forwards each chunk {@code delay} after it arrived (a lag each way), keeping the order per direction. */
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
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            Pipe pipe = new Pipe(client, upstream);
            pipes.add(pipe);
            int n = connections.incrementAndGet();
            newThread(n + "-up", new Direction(client, upstream, pipe, false, n + "-up")::pump).start();
            newThread(n + "-down", new Direction(upstream, client, pipe, true, n + "-down")::pump).start();
        }
    }

    /** A chunk read from one side, to be sent on at {@code dueNanos}. */
    private record Chunk(byte[] bytes, long dueNanos) {

        /** What the reader leaves last for the forwarder: the side it reads from is gone. */
        static final Chunk END = new Chunk(new byte[0], 0);
    }

    /**
     * One direction of one connection, until either side closes; then both close. Its reader sends
     * each chunk at once while no delay is set and nothing is in flight, and otherwise queues it
     * for the forwarder: so the chunks keep their order.
     */
    private final class Direction {
        private final Socket from;
        private final Socket to;
        private final Pipe pipe;
        private final boolean replies;
        private final String name;
        private final ReentrantLock sending = new ReentrantLock();
        private final BlockingQueue<Chunk> inFlight = new LinkedBlockingQueue<>();
        /** Chunks queued or being sent by the forwarder, and whether it was started; guarded by {@link #sending}. */
        private int pending;
        private boolean forwarding;

        Direction(Socket from, Socket to, Pipe pipe, boolean replies, String name) {
            this.from = from;
            this.to = to;
            this.pipe = pipe;
            this.replies = replies;
            this.name = name;
        }

        /** The reader. */
        void pump() {
            byte[] buffer = new byte[16 * 1024];
            try {
                InputStream in = from.getInputStream();
                int n;
                while ((n = in.read(buffer)) != -1) {
                    long delayNanos = delay.toNanos();
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
                newThread(name + "-late", this::forward).start();
            }
        }

        /** The forwarder: sends each queued chunk once it is due. */
        private void forward() {
            try {
                for (Chunk chunk = inFlight.take(); chunk != Chunk.END; chunk = inFlight.take()) {
                    long early = chunk.dueNanos() - System.nanoTime();
                    if (early > 0 && pipe.closed.await(early, TimeUnit.NANOSECONDS)) {
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
                pipe.frozen = freezingNewSubscribers;
            }
            if (pipe.frozen || dropped(pipe, replies)) {
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
        /** Counted down once closed: wakes forwarders waiting out a delay. */
        private final CountDownLatch closed = new CountDownLatch(1);

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
            closed.countDown();
            pipes.remove(this);
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }
}
