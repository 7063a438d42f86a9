package dev.lockstep.testkit.resource;

/** A fenced resource refused a write: a write with a higher token reached it first. Nothing was changed. */
public final class StaleTokenException extends RuntimeException {

    /** The write to {@code item} with {@code token} was refused; the resource has seen {@code fence}. */
    public StaleTokenException(String item, long token, long fence) {
        super("write to '" + item + "' with token " + token + " refused: it was already written with token " + fence);
    }
}
