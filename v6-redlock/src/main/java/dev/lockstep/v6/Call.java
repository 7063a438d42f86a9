package dev.lockstep.v6;

/** A request on its way to one node: its reply, read by the deadline it was sent with. */
interface Call {

    /** The reply, or why there is none; returns by the deadline. */
    Reply await();

    /** A call that ended before it began, with {@code reply}. */
    static Call done(Reply reply) {
        return () -> reply;
    }
}
