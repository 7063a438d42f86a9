package dev.lockstep.examples.inventory;

import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.Locks;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The articles' service method: take the product's lock, read the stock, work, write the stock
 * back, unlock. On stage 7 the read and the write carry the hold's fencing token, and the stock
 * refuses a stale one. With {@code lockstep.stage=none} the same steps run without a lock.
 */
@Service
public class OrderService {

    private static final Logger log = LoggerFactory.getLogger(OrderService.class);

    private final Stock stock;
    private final Locks locks;
    private final InventorySettings settings;

    OrderService(Stock stock, Optional<Locks> locks, InventorySettings settings) {
        this.stock = stock;
        this.locks = locks.orElse(null);
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
        DistLock lock = locks.get("inventory:lock:" + product);
        if (!lock.tryLock(settings.lockWait(), null)) {
            throw Refusal.lockBusy(product, settings.lockWait());
        }
        try {
            return sell(product, quantity, tokenOf(lock, product));
        } finally {
            unlock(lock);
        }
    }

    /**
     * The hold's fencing token on stage 7, null before it. A pause between sending the lock
     * command and reading its grant can leave a hold whose lease already ran out by this
     * service's clock: it has no token, and the order sells nothing.
     */
    private static Long tokenOf(DistLock lock, String product) {
        if (!(lock instanceof FencedLock fenced)) {
            return null;
        }
        try {
            return fenced.token();
        } catch (IllegalMonitorStateException leaseRanOut) {
            throw Refusal.leaseRanOut(product);
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

    /** Unlocks; from stage 2 on, a lock that expired under its holder says so here, after the write (or its refusal). */
    private static void unlock(DistLock lock) {
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException expired) {
            log.warn("{} expired while its order worked: another order may have read the same stock", lock.name());
        }
    }
}
