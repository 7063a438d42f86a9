package dev.lockstep.examples.inventory;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.Locks;
import dev.lockstep.multi.MultiNameLock;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The articles' service method: take the product's lock, read the stock, work, write the stock
 * back, unlock. On stage 7 the read and the write carry the hold's fencing token, and the stock
 * refuses a stale one. With {@code inventory.locked=false} the same steps run without a lock.
 *
 * <p>The lock is taken by hand here, not with {@code @Locked}: stage 7's token belongs to the
 * thread that locked ({@link FencedLock#token()}), and {@code @Locked}'s thread-free hold has none.
 *
 * <p>An account order does the same over two resources at once, the product and the customer's
 * account, under one lock over both names: held only when both are, taken in one order whoever
 * lists them how, so two orders never hold one each and wait for the other, and all or nothing,
 * so a refused or timed-out order leaves neither held.
 */
@Service
public class OrderService {

    private static final Logger log = LoggerFactory.getLogger(OrderService.class);

    private final Stock stock;
    private final Accounts accounts;
    private final Locks locks;
    private final InventorySettings settings;

    OrderService(Stock stock, Accounts accounts, Locks locks, InventorySettings settings) {
        this.stock = stock;
        this.accounts = accounts;
        this.locks = settings.locked() ? locks : null;
        this.settings = settings;
    }

    /**
     * Sells {@code quantity} units of {@code product}.
     *
     * @throws Refusal 404 for an unknown product, 409 when out of stock, 503 when the lock was not
     *                 free in time, or (stage 7) ran out before the order began or was lost to a
     *                 later holder
     */
    public Order order(String product, int quantity) throws InterruptedException {
        if (locks == null) {
            return sell(product, quantity, null);
        }
        DistLock lock = locks.get(productLock(product));
        boolean refused = false;
        try {
            // Inside the try: a call that fails may still have taken the lock, and the unlock gives that back.
            refused = !lock.tryLock(settings.lockWait(), null);
            if (refused) {
                throw Refusal.lockBusy(product, settings.lockWait());
            }
            return sell(product, quantity, tokenOf(lock, product));
        } finally {
            if (!refused) {
                unlock(lock);
            }
        }
    }

    /**
     * Sells {@code quantity} units of {@code product} to {@code customer}, paid from the account:
     * under the product's and the account's locks together, reads the stock, the price and the
     * balance, works, and writes the stock and the balance back.
     *
     * @throws Refusal 404 for an unknown product or account, 409 when out of stock or the balance
     *                 is short, 503 when the two locks were not both free in time, or (stage 7) one
     *                 ran out before the order began or was lost to a later holder
     */
    public Purchase order(String customer, String product, int quantity) throws InterruptedException {
        if (locks == null) {
            return purchase(customer, product, quantity, null, null);
        }
        String productName = productLock(product);
        String accountName = "inventory:lock:account:" + customer;
        if (locks instanceof CompositeLocks composite) {
            // A client that hands out composite locks builds its own (stage 5's: no fencing tokens).
            return purchaseUnder(composite.getAll(productName, accountName), null, null, customer, product, quantity);
        }
        // Any other stage's two locks make one here; on stage 7 each part has its own token.
        DistLock productPart = locks.get(productName);
        DistLock accountPart = locks.get(accountName);
        return purchaseUnder(new MultiNameLock(productPart, accountPart), productPart, accountPart, customer, product,
                quantity);
    }

    private static String productLock(String product) {
        return "inventory:lock:" + product;
    }

    /** Takes {@code both}, then sells under it; the parts, when known, give stage 7's tokens. */
    private Purchase purchaseUnder(DistLock both, DistLock productPart, DistLock accountPart, String customer,
                                   String product, int quantity) throws InterruptedException {
        boolean refused = false;
        try {
            // Inside the try: a call that fails may still have taken a part, and the unlock gives that back.
            refused = !both.tryLock(settings.lockWait(), null);
            if (refused) {
                throw Refusal.locksBusy(product, customer, settings.lockWait());
            }
            return purchase(customer, product, quantity, tokenOf(productPart, product),
                    tokenOf(accountPart, "account " + customer));
        } finally {
            if (!refused) {
                unlock(both);
            }
        }
    }

    /**
     * The hold's fencing token on stage 7, null before it (and for no lock). A pause between
     * sending the lock command and reading its grant can leave a hold whose lease already ran out
     * by this service's clock: it has no token, and the order sells nothing.
     */
    private static Long tokenOf(DistLock lock, String resource) {
        if (!(lock instanceof FencedLock fenced)) {
            return null;
        }
        try {
            return fenced.token();
        } catch (IllegalMonitorStateException leaseRanOut) {
            throw Refusal.leaseRanOut(resource);
        }
    }

    private Order sell(String product, int quantity, Long token) throws InterruptedException {
        long inStock = token == null ? stock.read(product) : stock.readFenced(product, token);
        if (inStock < quantity) {
            throw Refusal.outOfStock(product, inStock, quantity);
        }
        // The load run watches for this line: it pauses an instance here, mid-order, holding the lock.
        log.info("Selling {} of {}: {} in stock", quantity, product, inStock);
        TimeUnit.NANOSECONDS.sleep(settings.work().toNanos());
        long left = inStock - quantity;
        long number = token == null ? stock.sell(product, left, quantity) : stock.sellFenced(product, left, quantity, token);
        log.info("Sold {} of {}: {} left", quantity, product, left);
        return new Order(product, quantity, left, number, token);
    }

    private Purchase purchase(String customer, String product, int quantity, Long productToken, Long accountToken)
            throws InterruptedException {
        boolean fenced = productToken != null;
        Accounts.Reading read = fenced ? accounts.readFenced(product, customer, productToken, accountToken)
                : accounts.read(product, customer);
        if (read.stock() < quantity) {
            throw Refusal.outOfStock(product, read.stock(), quantity);
        }
        long cost = read.price() * quantity;
        if (read.balance() < cost) {
            throw Refusal.insufficientFunds(customer, read.balance(), cost);
        }
        log.info("Selling {} of {} to {} for {}: {} in stock, balance {}", quantity, product, customer, cost,
                read.stock(), read.balance());
        TimeUnit.NANOSECONDS.sleep(settings.work().toNanos());
        long stockLeft = read.stock() - quantity;
        long balanceLeft = read.balance() - cost;
        long number = fenced
                ? accounts.payFenced(product, customer, quantity, stockLeft, cost, balanceLeft, productToken, accountToken)
                : accounts.pay(product, customer, quantity, stockLeft, cost, balanceLeft);
        return new Purchase(customer, product, quantity, cost, stockLeft, balanceLeft, number, productToken, accountToken);
    }

    /** Unlocks; from stage 2 on, a lock that expired under its holder says so here, after the write (or its refusal). */
    private static void unlock(DistLock lock) {
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException notHeld) {
            // Its lease ran out while the order worked, or the lock call itself failed and took nothing.
            log.warn("{} was not held at unlock: another order may have read the same stock ({})", lock.name(),
                    notHeld.getMessage());
        }
    }
}
