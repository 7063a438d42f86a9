package dev.lockstep.zookeeper;

import dev.lockstep.LockException;

/** A lock call the ensemble did not complete: no quorum answered in time, or the session ended. The cause is kept. */
public final class EnsembleException extends LockException {

    EnsembleException(String name, String problem, Throwable cause) {
        super(name, problem + ": " + cause, cause);
    }
}
