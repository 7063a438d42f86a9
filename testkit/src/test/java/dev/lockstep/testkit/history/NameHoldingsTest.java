package dev.lockstep.testkit.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Judgements of stories over several names, on histories written by hand. */
class NameHoldingsTest {

    private static final Duration LEASE = Duration.ofSeconds(10);
    private static final List<String> INVENTORY = List.of("inventory");
    private static final List<String> ORDER = List.of("order");

    @Test
    void eachRefusedWhatTheOtherHeldIsAWaitCycle() {
        History history = bothHoldTheirFirstName();
        long waits = history.now();
        history.denied("A", ORDER, waits, "gave up on order");
        history.denied("B", INVENTORY, waits, "gave up on inventory");

        List<NameHoldings.WaitCycle> cycles = NameHoldings.waitCycles(history);
        assertEquals(1, cycles.size());
        assertEquals("A", cycles.get(0).first().actor());
    }

    @Test
    void aNameLetGoBeforeTheOtherWaitEndedBreaksTheCycle() {
        History history = bothHoldTheirFirstName();
        long waits = history.now();
        history.denied("B", INVENTORY, waits, "gave up on inventory");
        history.unlocked(history.now(), "B", ORDER, 0, "unlock order");
        history.denied("A", ORDER, waits, "gave up on order");

        assertEquals(List.of(), NameHoldings.waitCycles(history));
    }

    @Test
    void onlyAHolderOfTheSameNameIsIntrudedOn() {
        History history = bothHoldTheirFirstName();
        assertEquals(List.of(), Checker.intrusions(history));

        history.acquired("C", INVENTORY, history.now(), LEASE, 1, "locked inventory");
        List<Checker.Intrusion> intrusions = Checker.intrusions(history);
        assertEquals(1, intrusions.size());
        assertEquals("A", intrusions.get(0).holder().actor());
    }

    @Test
    void aFailedCallsLeftoverIsStillHeld() {
        History history = bothHoldTheirFirstName();
        history.denied("A", ORDER, history.now(), "gave up on order, holding inventory");
        long asked = history.now();

        assertEquals(List.of("A"), NameHoldings.holdersAt(history, "inventory", asked));
        history.unlocked(history.now(), "A", INVENTORY, 0, "unlock inventory");
        assertEquals(List.of(), NameHoldings.holdersAt(history, "inventory", history.now()));
    }

    private static History bothHoldTheirFirstName() {
        History history = new History();
        history.acquired("A", INVENTORY, history.now(), LEASE, 1, "locked inventory");
        history.acquired("B", ORDER, history.now(), LEASE, 1, "locked order");
        return history;
    }
}
