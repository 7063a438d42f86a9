package dev.lockstep.testkit.model;

/** What a replayed history needs of the lock it plays on. */
enum HistoryNeeds {
    /** Any lock the model covers. */
    ANY_LOCK,
    /** A read side (the read-write lock). */
    READ_SIDE,
    /** Several names locked as one (a group beside the single name). */
    SEVERAL_NAMES;

    /** Whether a lock set up as {@code setup} has what this needs. */
    boolean metBy(ModelSetup setup) {
        return switch (this) {
            case ANY_LOCK -> true;
            case READ_SIDE -> setup.readWrite();
            case SEVERAL_NAMES -> setup.severalNames();
        };
    }
}
