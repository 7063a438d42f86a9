package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership;
import dev.lockstep.testkit.history.KeyOwnership.Hold;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.history.Timeline;
import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** The state a lock keeps out of sight, read from real runs: whose key each node stores, renewals, lease deadlines. */
class KeyOwnershipTest {

    private static RedisFixture fixture;

    @BeforeAll
    static void start() {
        fixture = RedisFixture.fromSystemProperty();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void aForeignUnlockShowsWhoseKeyItDeleted() throws Exception {
        Outcome outcome = run("v1-setnx", "foreign-unlock");
        KeyOwnership ownership = KeyOwnership.of(outcome.history());

        assertEquals(List.of("master"), ownership.nodes());
        assertEquals(List.of("A EXPIRED", "B DELETED", "C DELETED"), summary(ownership.holds(), "master"));
        assertEquals(List.of("A"), ownership.deadlines().stream().map(KeyOwnership.Deadline::lane).toList(),
                "A's fixed lease ran out while it worked");
        assertFitsAndShows(outcome, "master");
        Document svg = SvgTimelineTest.parse(SvgTimeline.render(outcome));
        assertEquals(3, SvgTimelineTest.byClass(svg, "rect", "hold").size());
        assertEquals(1, SvgTimelineTest.byClass(svg, "line", "deadline").size());
    }

    @Test
    void theWatchdogsRenewalsMoveTheDeadlineThatAFixedLeaseMisses() throws Exception {
        KeyOwnership fixed = KeyOwnership.of(run("v3-reentrant-hash", "long-critical-section").history());
        Outcome renewedRun = run("v4-watchdog", "long-critical-section");
        KeyOwnership renewed = KeyOwnership.of(renewedRun.history());

        assertTrue(fixed.renewals().isEmpty());
        assertTrue(fixed.deadlines().stream().anyMatch(d -> d.lane().equals("A")), "v3: A's lease ran out under it");
        assertTrue(renewed.renewals().stream().filter(r -> r.owner().equals("A")).count() >= 3, () -> renewed.renewals().toString());
        assertTrue(renewed.deadlines().stream().noneMatch(d -> d.lane().equals("A")), "v4: A's lease never ran out");
        assertTrue(Timeline.render(renewedRun.history()).contains("A+"), "a renewal marked in the node column");
        Document svg = SvgTimelineTest.parse(SvgTimeline.render(renewedRun));
        assertTrue(SvgTimelineTest.byClass(svg, "line", "renewal").size() >= 3);
    }

    @Test
    void aRestartedRedLockNodeLosesAsKeyAndStoresBs() throws Exception {
        Outcome outcome = run("v6-redlock", "restart-amnesia");
        KeyOwnership ownership = KeyOwnership.of(outcome.history());

        assertEquals(List.of("n1", "n2", "n3", "n4", "n5"), ownership.nodes());
        assertEquals(List.of("A DOWN", "B DELETED"), summary(ownership.holds(), "n3"));
        assertEquals(List.of("B DELETED"), summary(ownership.holds(), "n4"));
        assertEquals(List.of("A DELETED"), summary(ownership.holds(), "n1"));
        assertFitsAndShows(outcome, "n5");
    }

    @Test
    void aStoryOverWithinMillisecondsIsHeardToItsEnd() throws Exception {
        for (int run = 0; run < 5; run++) {
            Outcome outcome = run("v3-reentrant-hash", "reentry");
            KeyOwnership ownership = KeyOwnership.of(outcome.history());

            // Who held each key is not asserted: a key gone before the watch could read it is named
            // from the calls under way, which a story this fast can leave ambiguous.
            int which = run;
            assertEquals(List.of(Kind.DELETED, Kind.DELETED), ownership.holds().stream()
                    .sorted((x, y) -> Long.compare(x.from(), y.from())).map(KeyOwnership.Hold::end).toList(),
                    () -> "run " + which + ":\n" + events(outcome));
        }
    }

    @Test
    void twoNamesOnOneNodeGetAColumnEachAndTheirHoldersAreToldApart() throws Exception {
        // Stage 2's owner values are fresh tokens: the writer of each key is found from the calls for that name.
        Outcome outcome = run("v2-owner-check", "opposite-order");
        KeyOwnership ownership = KeyOwnership.of(outcome.history());

        assertEquals(List.of("inventory", "order"), ownership.nodes());
        assertEquals(List.of("A EXPIRED", "B DELETED"), summary(ownership.holds(), "inventory"));
        assertEquals(List.of("B EXPIRED", "A DELETED"), summary(ownership.holds(), "order"));
        assertEquals(List.of(), Checker.intrusions(outcome.history()), "holders of the other name do not count");
        assertFitsAndShows(outcome, "inventory");

        Outcome quorum = run("v6-redlock", "opposite-order");
        KeyOwnership firstNode = KeyOwnership.of(quorum.history());
        assertEquals(List.of("n1:inventory", "n1:order"), firstNode.nodes(), "the first node's keys, for room");
        assertEquals(List.of("A DELETED"), summary(firstNode.holds(), "n1:inventory"));
        assertEquals(List.of("B DELETED"), summary(firstNode.holds(), "n1:order"));
        assertFitsAndShows(quorum, "n1:order");
    }

    @Test
    void readersShareTheKeyTheNodeStores() throws Exception {
        KeyOwnership ownership = KeyOwnership.of(run("read-write-lock", "readers-share").history());

        assertTrue(ownership.holds().stream().anyMatch(h -> h.owner().equals("A+B") || h.owner().equals("B+A")),
                () -> "a hold shared by both clients' readers: " + ownership.holds());
    }

    @Test
    void fixtureKeysAreLeftOutUnlessAskedFor() throws Exception {
        Outcome outcome = run("v5-pubsub-retry", "failover+wait");

        assertTrue(outcome.history().events().stream().anyMatch(e -> e.kind() == Kind.FIXTURE));
        assertFalse(Timeline.render(outcome.history()).contains("replication-marker"));
        assertTrue(Timeline.render(outcome.history(), false, true).contains("replication-marker"));
    }

    @Test
    void nodeEventsOfOneKindAtOneInstantMergeWithANodeOnceForTextRowsAndAsHeardForLabels() {
        History history = new History();
        history.node("n1");
        history.node("n2");
        history.recordAt(0, "redis/n1", Kind.DELETED, "orders deleted");
        history.recordAt(1_000_000, "redis/n2", Kind.DELETED, "orders deleted");
        history.recordAt(2_000_000, "redis/n1", Kind.DELETED, "orders deleted");
        history.recordAt(3_000_000, "redis/n2", Kind.EXPIRED, "orders expired");
        history.recordAt(9_000_000, "redis/n1", Kind.EXPIRED, "orders expired");
        KeyOwnership ownership = KeyOwnership.of(history);
        List<Event> events = history.events();

        assertEquals(List.of(3, 1, 1), sizes(ownership.atOneInstant(events, Event::at, false)));
        assertEquals(List.of(2, 1, 1, 1), sizes(ownership.atOneInstant(events, Event::at, true)));
        assertEquals(List.of(3, 2), sizes(ownership.atOneInstant(events, e -> 0, false)), "the caller's clock");

        History oneNode = new History();
        oneNode.node("master");
        oneNode.recordAt(0, "redis/master", Kind.DELETED, "orders deleted");
        oneNode.recordAt(1_000_000, "redis/master", Kind.DELETED, "orders deleted");
        assertEquals(List.of(1, 1), sizes(KeyOwnership.of(oneNode).atOneInstant(oneNode.events(), Event::at, false)),
                "with one node there is no node to name");
    }

    private static List<Integer> sizes(List<List<Event>> runs) {
        return runs.stream().map(List::size).toList();
    }

    private static Outcome run(String stage, String scenario) {
        Stage found = Stages.all().stream().filter(s -> s.name().equals(stage)).findFirst().orElseThrow();
        Outcome outcome = Outcome.run(found, Catalog.byId(scenario), fixture);
        assertNull(outcome.error(), () -> outcome.report());
        return outcome;
    }

    /** The recorded events, one per line, for a failure message. */
    private static String events(Outcome outcome) {
        StringBuilder out = new StringBuilder();
        outcome.history().events().forEach(e -> out.append(String.format("%10.3f %-14s %-12s %s%n", e.at() / 1e6,
                e.actor(), e.kind(), e.detail())));
        return out.toString();
    }

    /** Each hold on {@code node}, in order, as its owner and what ended it. */
    private static List<String> summary(List<Hold> holds, String node) {
        return holds.stream().filter(h -> h.node().equals(node)).sorted((x, y) -> Long.compare(x.from(), y.from()))
                .map(h -> h.owner() + " " + h.end()).toList();
    }

    private static void assertFitsAndShows(Outcome outcome, String node) {
        String text = Timeline.render(outcome.history());
        for (String line : text.split("\n")) {
            assertTrue(line.length() <= Timeline.COLUMNS, () -> line.length() + " columns: " + line + "\n" + text);
        }
        assertTrue(text.lines().findFirst().orElseThrow().contains(node), text);
    }
}
