package dev.lockstep.testkit.resource;

/**
 * A fenced resource refused a read or a write: a holder with a higher token reached it first.
 * Nothing was changed.
 */
public final class StaleTokenException extends RuntimeException {

    private StaleTokenException(String access, String item, long token, long fence) {
        super(access + " '" + item + "' with token " + token + " refused: token " + fence + " got there first");
    }

    /** The write to {@code item} with {@code token} was refused; the resource has seen {@code fence}. */
    static StaleTokenException write(String item, long token, long fence) {
        return new StaleTokenException("write to", item, token, fence);
    }

    /** The read of {@code item} with {@code token} was refused; the resource has seen {@code fence}. */
    static StaleTokenException read(String item, long token, long fence) {
        return new StaleTokenException("read of", item, token, fence);
    }
}
