package dev.lockstep.examples.inventory;

import dev.lockstep.starter.Locked;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * The customers' accounts, kept in Redis beside the products: a hash per customer with its
 * {@code balance}, and two counts that only ever grow, {@code spent} and {@code orders}. An account
 * order reads a product's stock and price and an account's balance, then writes both back: the
 * same two steps as {@link Stock}'s, over two hashes, which the product's and the account's locks
 * together keep apart. The write changes both hashes or neither; on stage 7 both steps carry both
 * locks' fencing tokens. Both hashes must live on one Redis: the script and the transaction span them.
 */
@Component
public class Accounts {

    private static final Logger log = LoggerFactory.getLogger(Accounts.class);
    private static final String FENCED_READ = Stock.script("fenced-purchase-read.lua");
    private static final String FENCED_PURCHASE = Stock.script("fenced-purchase.lua");

    private final UnifiedJedis redis;

    Accounts(UnifiedJedis redis) {
        this.redis = redis;
    }

    /** What an account order reads before it decides. */
    record Reading(long stock, long price, long balance) {
    }

    /** Sets {@code customer}'s balance to {@code balance} and its counts to zero, under the account's lock, as orders take it. */
    @Locked(name = "inventory:lock:account", key = "#customer", waitFor = "${inventory.lock-wait:5s}")
    public Account fund(String customer, long balance) {
        redis.hset(key(customer), Map.of("balance", Long.toString(balance), "spent", "0", "orders", "0", "fence", "0"));
        return new Account(customer, balance, 0, 0);
    }

    /** {@code customer}'s account as it is now; empty when there is no such account. */
    public Optional<Account> find(String customer) {
        List<String> fields = redis.hmget(key(customer), "balance", "spent", "orders");
        if (fields.get(0) == null) {
            return Optional.empty();
        }
        return Optional.of(new Account(customer, Long.parseLong(fields.get(0)), Long.parseLong(fields.get(1)),
                Long.parseLong(fields.get(2))));
    }

    /**
     * The product's stock and price and the account's balance: the first half of an account order.
     *
     * @throws Refusal 404 for an unknown product or account
     */
    Reading read(String product, String customer) {
        List<String> item = redis.hmget(Stock.key(product), "stock", "price");
        if (item.get(0) == null) {
            throw Refusal.unknownProduct(product);
        }
        String balance = redis.hget(key(customer), "balance");
        if (balance == null) {
            throw Refusal.unknownAccount(customer);
        }
        return new Reading(Long.parseLong(item.get(0)), Long.parseLong(item.get(1)), Long.parseLong(balance));
    }

    /**
     * {@link #read}, by the holders of {@code productToken} and {@code accountToken}: both fences
     * move to them, so no holder with an older token of either lock can write after this read.
     *
     * @throws Refusal 404 for an unknown product or account, 503 when a later token read or wrote first
     */
    Reading readFenced(String product, String customer, long productToken, long accountToken) {
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) redis.eval(FENCED_READ, List.of(Stock.key(product), key(customer)),
                List.of(Long.toString(productToken), Long.toString(accountToken)));
        long status = reply.get(0);
        if (status == -1) {
            throw Refusal.unknownProduct(product);
        }
        if (status == -2) {
            throw Refusal.unknownAccount(customer);
        }
        if (status == 0) {
            throw stale(product, customer, productToken, accountToken);
        }
        return new Reading(reply.get(1), reply.get(2), reply.get(3));
    }

    /**
     * Writes {@code stockLeft} and {@code balanceLeft} back and counts the sale on both, in one
     * transaction: the second half. Returns the order's number for the customer.
     */
    long pay(String product, String customer, int quantity, long stockLeft, long cost, long balanceLeft) {
        String item = Stock.key(product);
        String account = key(customer);
        try (AbstractTransaction sale = redis.multi()) {
            sale.hset(item, "stock", Long.toString(stockLeft));
            sale.hincrBy(item, "sold", quantity);
            sale.hincrBy(item, "orders", 1);
            sale.hset(account, "balance", Long.toString(balanceLeft));
            sale.hincrBy(account, "spent", cost);
            Response<Long> number = sale.hincrBy(account, "orders", 1);
            sale.exec();
            return number.get();
        }
    }

    /**
     * {@link #pay}, unless a holder with a later token of either lock read or wrote first: then
     * neither hash is written.
     *
     * @throws Refusal 503 when a later token read or wrote first
     */
    long payFenced(String product, String customer, int quantity, long stockLeft, long cost, long balanceLeft,
                   long productToken, long accountToken) {
        long number = (Long) redis.eval(FENCED_PURCHASE, List.of(Stock.key(product), key(customer)),
                List.of(Long.toString(stockLeft), Integer.toString(quantity), Long.toString(balanceLeft),
                        Long.toString(cost), Long.toString(productToken), Long.toString(accountToken)));
        if (number == 0) {
            throw stale(product, customer, productToken, accountToken);
        }
        return number;
    }

    private static Refusal stale(String product, String customer, long productToken, long accountToken) {
        log.warn("Refused tokens {} on {} and {} on {}: a later holder of a lock read or wrote first",
                productToken, product, accountToken, customer);
        return Refusal.stalePurchase(product, customer);
    }

    private static String key(String customer) {
        return "inventory:account:" + customer;
    }
}
