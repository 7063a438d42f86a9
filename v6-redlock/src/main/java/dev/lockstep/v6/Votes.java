package dev.lockstep.v6;

import dev.lockstep.internal.Patience;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * One round's replies read against the quorum: whether enough nodes said yes, or so many said no
 * that a quorum can no longer be reached, and who holds the lock on a quorum of nodes.
 *
 * @param replies one per node, in node order
 * @param quorum  how many nodes must agree
 */
record Votes(List<Reply> replies, int quorum) {

    /** How many nodes gave a reply {@code which} selects. */
    int count(Predicate<Reply> which) {
        return (int) replies.stream().filter(which).count();
    }

    /** Whether at least a quorum of nodes gave a reply {@code which} selects. */
    boolean quorum(Predicate<Reply> which) {
        return count(which) >= quorum;
    }

    /** Whether so many nodes gave a reply {@code which} selects that the rest can no longer make a quorum. */
    boolean blocking(Predicate<Reply> which) {
        return count(which) > replies.size() - quorum;
    }

    /** The failures that are Redis saying no (an ACL without a command), not a node out of reach. */
    List<Throwable> refusals() {
        return Reply.failures(replies).stream().filter(Patience::refused).toList();
    }

    /**
     * The lease left to the one holder that refused this round on a quorum of nodes (the shortest
     * of its leases there), or empty: a split vote, a round in flight, or nodes too slow.
     */
    OptionalLong holderLease() {
        Map<Object, List<Long>> leasesByHolder = Reply.answers(replies).stream()
                .filter(List.class::isInstance).map(answer -> (List<?>) answer)
                .collect(Collectors.groupingBy(refusal -> refusal.get(1),
                        Collectors.mapping(refusal -> (Long) refusal.get(0), Collectors.toList())));
        return leasesByHolder.values().stream().filter(leases -> leases.size() >= quorum)
                .mapToLong(leases -> leases.stream().mapToLong(Long::longValue).min().orElse(0)).findFirst();
    }
}
