package dev.lockstep.v6;

import java.util.List;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** One node's answer to a request of the fan-out, or why there is none. */
sealed interface Reply {

    /** The node answered {@code value} in time (a script's nil is null). */
    record Answered(Object value) implements Reply {
    }

    /** No answer: an error reply, a connection that failed, or the node timeout. */
    record Failed(Throwable cause) implements Reply {
    }

    /** Sent for its effect behind a request the node has not answered yet: nobody waits for this one's answer. */
    record NotAwaited() implements Reply {
    }

    /** Whether the node answered in time. */
    default boolean answered() {
        return this instanceof Answered;
    }

    /** Whether the node answered in time, and answered {@code nil}. */
    default boolean answeredNil() {
        return this instanceof Answered answered && answered.value() == null;
    }

    /** Whether the node answered {@code value} in time. */
    default boolean answeredEqual(Object value) {
        return this instanceof Answered answered && value.equals(answered.value());
    }

    /** Whether the connection broke before the node answered, not by a timeout: the request may never have reached it. */
    default boolean connectionBroke() {
        return this instanceof Failed failed && failed.cause() instanceof JedisConnectionException broken
                && !Barrier.timedOut(broken);
    }

    /** What the nodes that answered in time answered, in node order (a script's nil is null). */
    static List<Object> answers(List<Reply> replies) {
        return replies.stream().filter(Answered.class::isInstance).map(reply -> ((Answered) reply).value()).toList();
    }

    /** Why the nodes that did not answer in time did not, in node order. */
    static List<Throwable> failures(List<Reply> replies) {
        return replies.stream().filter(Failed.class::isInstance).map(reply -> ((Failed) reply).cause()).toList();
    }
}
