package dev.lockstep.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.Context;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import redis.clients.jedis.RedisClient;

/**
 * Two registries on one Redis elect a leader with Spring Integration's own initiator: one leader
 * at a time, and the other leads within one lease once the leader stops or its client dies.
 */
@Execution(ExecutionMode.CONCURRENT)
class LeaderElectionTest extends SingleNodeTest {

    /** The watchdog's lease: how long a dead leader's lock outlives it. */
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final long HEARTBEAT_MILLIS = 200;

    /** A candidate's grant or revoke, as its callback heard it. */
    private record Event(String candidate, boolean granted, long atNanos) {
    }

    /** One member of the election: its client, its initiator, and what its candidate heard. */
    private record Member(String id, RedisClient client, Locks locks, LockRegistryLeaderInitiator initiator) {

        boolean leads() {
            return initiator.getContext().isLeader();
        }
    }

    private Member join(String id, String role, Queue<Event> events) {
        RedisClient client = closedAfter(node.newClient());
        Locks locks = closedAfter(new PubSubLocks(client, LockOptions.defaults().withWatchdogTimeout(LEASE)));
        Candidate candidate = new Candidate() {
            @Override
            public String getRole() {
                return role;
            }

            @Override
            public String getId() {
                return id;
            }

            @Override
            public void onGranted(Context context) {
                events.add(new Event(id, true, System.nanoTime()));
            }

            @Override
            public void onRevoked(Context context) {
                events.add(new Event(id, false, System.nanoTime()));
            }
        };
        LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(new LockstepLockRegistry(locks), candidate);
        initiator.setHeartBeatMillis(HEARTBEAT_MILLIS);
        initiator.setBusyWaitMillis(50);
        closedAfter(initiator::destroy);
        initiator.start();
        return new Member(id, client, locks, initiator);
    }

    /**
     * Both join, one leads, and leadership stays with it, alone, for longer than a lease: the
     * watchdog renews the leader's lock, which Spring's initiator took without a ttl.
     */
    private List<Member> electOne(String role, Queue<Event> events) {
        List<Member> members = List.of(join("a", role, events), join("b", role, events));
        Await.until("a leader", Duration.ofSeconds(5), () -> members.stream().anyMatch(Member::leads));
        Member first = members.stream().filter(Member::leads).findFirst().orElseThrow();
        long watchUntil = System.nanoTime() + LEASE.plusMillis(500).toNanos();
        while (System.nanoTime() < watchUntil) {
            assertEquals(List.of(first), members.stream().filter(Member::leads).toList(), "leaders");
            Await.pause(Duration.ofMillis(20));
        }
        assertEquals(1, events.size(), "one grant, nothing revoked: " + events);
        return members;
    }

    @Test
    void theOtherLeadsWithinOneLeaseWhenTheLeaderStops(TestInfo test) {
        Queue<Event> events = new ConcurrentLinkedQueue<>();
        List<Member> members = electOne(test.getDisplayName(), events);
        Member leader = members.stream().filter(Member::leads).findFirst().orElseThrow();
        Member other = members.stream().filter(m -> m != leader).findFirst().orElseThrow();

        long stoppedAt = System.nanoTime();
        leader.initiator().stop();
        Await.until("the other leads", LEASE, other::leads);
        Await.until("the leader hears it is revoked", LEASE, () -> events.stream()
                .anyMatch(e -> e.candidate().equals(leader.id()) && !e.granted()));

        // Spring's initiator unlocks before it tells the candidate, so a stopped leader leads until stop() at the latest.
        assertNoOverlap(events, leader.id(), stoppedAt);
    }

    @Test
    void theOtherLeadsWithinOneLeaseWhenTheLeadersClientDies(TestInfo test) {
        Queue<Event> events = new ConcurrentLinkedQueue<>();
        List<Member> members = electOne(test.getDisplayName(), events);
        Member leader = members.stream().filter(Member::leads).findFirst().orElseThrow();
        Member other = members.stream().filter(m -> m != leader).findFirst().orElseThrow();

        long diedAt = System.nanoTime();
        leader.locks().close();
        leader.client().close();
        // The leader's re-entry every heartbeat sets its lease anew, so up to a whole lease is left; the other
        // notices within its heartbeat's wait, plus what a busy machine adds.
        Await.until("the other leads", LEASE.plusMillis(HEARTBEAT_MILLIS + 500), other::leads);
        Duration takeOver = Duration.ofNanos(System.nanoTime() - diedAt);
        Await.until("the dead leader's candidate hears it is revoked", LEASE, () -> events.stream()
                .anyMatch(e -> e.candidate().equals(leader.id()) && !e.granted()));

        System.out.printf("leader's client died; the other led %d ms later%n", takeOver.toMillis());
        assertNoOverlap(events, leader.id(), Long.MAX_VALUE);
    }

    /**
     * No two candidates lead at once: each grant to revoke (or now) is an interval, and
     * {@code cappedId}'s end at {@code capNanos} at the latest.
     */
    private static void assertNoOverlap(Queue<Event> events, String cappedId, long capNanos) {
        List<long[]> intervals = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        for (Event grant : events) {
            if (!grant.granted()) {
                continue;
            }
            long end = events.stream()
                    .filter(e -> e.candidate().equals(grant.candidate()) && !e.granted() && e.atNanos() >= grant.atNanos())
                    .mapToLong(Event::atNanos).min().orElse(System.nanoTime());
            intervals.add(new long[] {grant.atNanos(), grant.candidate().equals(cappedId) ? Math.min(end, capNanos) : end});
            owners.add(grant.candidate());
        }
        assertTrue(intervals.size() >= 2, "two leaderships expected: " + events);
        for (int i = 0; i < intervals.size(); i++) {
            for (int j = i + 1; j < intervals.size(); j++) {
                long[] x = intervals.get(i);
                long[] y = intervals.get(j);
                assertTrue(x[1] <= y[0] || y[1] <= x[0], owners.get(i) + " and " + owners.get(j)
                        + " led at once: " + events);
            }
        }
    }
}
