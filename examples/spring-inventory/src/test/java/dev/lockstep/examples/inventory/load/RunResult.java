package dev.lockstep.examples.inventory.load;

import dev.lockstep.examples.inventory.Stage;
import java.time.Duration;

/**
 * One stage under one variant: what the customers were told, and what the stock says.
 *
 * @param claimed          whether the stage claims to sell no unit twice under this variant
 * @param startStock       units in stock before the first order
 * @param accepted         orders answered 201: units the customers were told they bought
 * @param outOfStock       orders answered 409
 * @param lockBusy         orders answered 503: the lock not free in time, or (stage 7) a lost lease
 * @param otherAnswers     any other answer: a failure of the run, not of the lock
 * @param finalStock       units in stock after the last order
 * @param p50Millis        median order latency, as the HTTP client saw it
 * @param p99Millis        99th percentile order latency
 * @param commandsPerOrder commands Redis ran per order (INFO commandstats), those inside scripts included
 * @param took             how long the orders took, start to last answer
 */
record RunResult(Variant variant, Stage stage, boolean claimed, long startStock, long accepted, long outOfStock,
                 long lockBusy, long otherAnswers, long finalStock, double p50Millis, double p99Millis,
                 double commandsPerOrder, Duration took) {

    /**
     * Units sold twice: those the customers bought plus those still in stock, beyond those there
     * were. Zero when every sale wrote back what the one before it left.
     */
    long oversold() {
        return accepted + finalStock - startStock;
    }

    /** Whether the stage kept its claim (or made none). */
    boolean keptItsClaim() {
        return !claimed || oversold() == 0;
    }
}
