package dev.lockstep.examples.inventory;

import java.time.Duration;
import org.springframework.http.HttpStatus;

/** Why the service refused a request, with the HTTP status that says so; nothing was changed. */
public final class Refusal extends RuntimeException {

    private final HttpStatus status;

    private Refusal(HttpStatus status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** 400: a request no product, account, quantity, stock, price or balance could satisfy. */
    static Refusal badInput(String message) {
        return new Refusal(HttpStatus.BAD_REQUEST, message);
    }

    /** 404: no such product. */
    static Refusal unknownProduct(String product) {
        return new Refusal(HttpStatus.NOT_FOUND, "no product " + product);
    }

    /** 404: no such account. */
    static Refusal unknownAccount(String customer) {
        return new Refusal(HttpStatus.NOT_FOUND, "no account " + customer);
    }

    /** 409: fewer units in stock than the order asks for. */
    static Refusal outOfStock(String product, long inStock, int quantity) {
        return new Refusal(HttpStatus.CONFLICT, product + " has " + inStock + " in stock; the order asked for " + quantity);
    }

    /** 409: the account's balance is below what the order costs. */
    static Refusal insufficientFunds(String customer, long balance, long cost) {
        return new Refusal(HttpStatus.CONFLICT, customer + " has a balance of " + balance + "; the order costs " + cost);
    }

    /** 503: the product's and the account's locks were not both free for as long as an order may wait. */
    static Refusal locksBusy(String product, String customer, Duration wait) {
        return new Refusal(HttpStatus.SERVICE_UNAVAILABLE, "the locks on " + product + " and account " + customer
                + " were not both free within " + wait.toMillis() + " ms; nothing was sold, try again");
    }

    /** 503: the product's lock stayed taken for as long as an order may wait. */
    static Refusal lockBusy(String product, Duration wait) {
        return new Refusal(HttpStatus.SERVICE_UNAVAILABLE, "the lock on " + product + " was not free within "
                + wait.toMillis() + " ms; nothing was sold, try again");
    }

    /** 503: the lock expired while the order worked, and a later holder read or wrote first (stage 7 sees this). */
    static Refusal staleToken(String product, long token) {
        return new Refusal(HttpStatus.SERVICE_UNAVAILABLE, "the lock on " + product + " expired while this order "
                + "worked, and a later holder got to the stock first (token " + token + " is stale); nothing was sold, "
                + "try again");
    }

    /** 503: a lock of an account order expired while it worked, and a later holder got there first (stage 7 sees this). */
    static Refusal stalePurchase(String product, String customer) {
        return new Refusal(HttpStatus.SERVICE_UNAVAILABLE, "a lock on " + product + " or account " + customer
                + " expired while this order worked, and a later holder got to the stock or the balance first; "
                + "nothing was sold, try again");
    }

    /** 503: the lock's lease ran out between its grant and the order's first step (stage 7 sees this). */
    static Refusal leaseRanOut(String product) {
        return new Refusal(HttpStatus.SERVICE_UNAVAILABLE, "the lock on " + product + " expired before this order "
                + "could use it (the service was paused); nothing was sold, try again");
    }

    /** The HTTP status of this refusal. */
    public HttpStatus status() {
        return status;
    }
}
