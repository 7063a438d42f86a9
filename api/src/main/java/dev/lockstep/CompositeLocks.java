package dev.lockstep;

/**
 * A client that also hands out one lock over several names, held only as a whole: the first
 * article's MultiLock. Nested locks taken by hand deadlock when two callers list the names in
 * opposite orders, and leave the first held when a later one fails; this lock does neither.
 */
public interface CompositeLocks extends Locks {

    /**
     * The lock over {@code names}, in any order (taken in one order whatever the caller lists),
     * held only while every one of them is: {@code lock()} takes all or none, {@code unlock()}
     * gives all back.
     *
     * @throws NullPointerException     when {@code names} or one of them is null
     * @throws IllegalArgumentException when {@code names} is empty, or a name is blank or given twice
     * @throws IllegalStateException    when this client is closed
     */
    DistLock getAll(String... names);
}
