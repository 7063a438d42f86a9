package dev.lockstep.v6;

import dev.lockstep.v6.FanOut.Request;
import dev.lockstep.v6.FanOut.WhenLate;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * How the fan-out talks to one node: through the {@link DirectSender}, unless the owner has
 * something on the node's {@link OwnerQueue}, a request the node left unanswered and its barrier
 * or what followed them; then behind those, in order. Once nothing of the owner's is left on the
 * queue, it sends directly again. A client that is not a {@link RedisClient} has no pool to borrow
 * from, and all its requests take the queue.
 */
final class Lane implements AutoCloseable {

    private final OwnerQueue queue;
    private final DirectSender direct;

    Lane(UnifiedJedis node, String threadName) {
        this.queue = new OwnerQueue(node, threadName);
        this.direct = node instanceof RedisClient client ? new DirectSender(client.getPool(), queue) : null;
    }

    /** Sends {@code request}; its reply counts only if it comes by {@code deadline}. */
    Call ask(Request request, long deadline, WhenLate whenLate) {
        return sendsDirectly(request) ? direct.send(request, deadline) : queue.send(request, deadline, whenLate);
    }

    /** Sends {@code request} for its effect: read by {@code deadline} if sent directly, else sent however late. */
    Call tell(Request request, long deadline) {
        if (sendsDirectly(request)) {
            return direct.send(request, deadline);
        }
        queue.send(request, deadline, WhenLate.SEND);
        return Call.done(new Reply.NotAwaited());
    }

    /** How many requests wait on the node's queue now, or run there. */
    int requests() {
        return queue.requests();
    }

    private boolean sendsDirectly(Request request) {
        return direct != null && !queue.has(request.owner());
    }

    /** Stops the queue; a request stuck on a stalled node ends with its socket timeout. */
    @Override
    public void close() {
        queue.close();
    }
}
