package dev.lockstep.examples.inventory;

import dev.lockstep.starter.Locked;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * The products, kept in Redis: a hash per product with its {@code stock}, and two counts that only
 * ever grow, {@code sold} and {@code orders}, so that a stock write another order overwrote still
 * shows in them. The stock itself is read and written back as the articles' service does, in two
 * steps the lock must keep apart. On stage 7 both steps carry the order's fencing token, and the
 * hash's {@code fence} moves on the read: a holder that paused past its lease can write neither
 * after its successor's write nor between its successor's read and write.
 */
@Component
public class Stock {

    private static final Logger log = LoggerFactory.getLogger(Stock.class);
    private static final String FENCED_READ = script("fenced-read.lua");
    private static final String FENCED_SALE = script("fenced-sale.lua");

    private final UnifiedJedis redis;

    Stock(UnifiedJedis redis) {
        this.redis = redis;
    }

    /**
     * Sets {@code product}'s stock to {@code units}, its unit price to {@code price}, and its counts
     * to zero, under the product's lock: an order between its read and its write would otherwise
     * write its stale stock over the restock.
     */
    @Locked(name = "inventory:lock", key = "#product", waitFor = "${inventory.lock-wait:5s}")
    public Product restock(String product, long units, long price) {
        redis.hset(key(product), Map.of("stock", Long.toString(units), "price", Long.toString(price), "sold", "0",
                "orders", "0", "fence", "0"));
        return new Product(product, units, price, 0, 0);
    }

    /** {@code product} as it is now; empty when there is no such product. */
    public Optional<Product> find(String product) {
        List<String> fields = redis.hmget(key(product), "stock", "price", "sold", "orders");
        if (fields.get(0) == null) {
            return Optional.empty();
        }
        return Optional.of(new Product(product, Long.parseLong(fields.get(0)), Long.parseLong(fields.get(1)),
                Long.parseLong(fields.get(2)), Long.parseLong(fields.get(3))));
    }

    /** The stock of {@code product}: the first half of a sale. */
    public long read(String product) {
        String stock = redis.hget(key(product), "stock");
        if (stock == null) {
            throw Refusal.unknownProduct(product);
        }
        return Long.parseLong(stock);
    }

    /**
     * {@link #read}, by the holder of {@code token}: the fence moves to the token, so no holder with
     * an older one can write after this read.
     *
     * @throws Refusal 404 for an unknown product, 503 when a later token read or wrote first
     */
    public long readFenced(String product, long token) {
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) redis.eval(FENCED_READ, List.of(key(product)), List.of(Long.toString(token)));
        if (reply == null) {
            throw Refusal.unknownProduct(product);
        }
        if (reply.get(0) == 0) {
            throw stale(product, token);
        }
        return reply.get(1);
    }

    /** Writes {@code left} back as the stock and counts the sale: the second half. Returns the order's number. */
    public long sell(String product, long left, int quantity) {
        String key = key(product);
        try (AbstractTransaction sale = redis.multi()) {
            sale.hset(key, "stock", Long.toString(left));
            sale.hincrBy(key, "sold", quantity);
            Response<Long> number = sale.hincrBy(key, "orders", 1);
            sale.exec();
            return number.get();
        }
    }

    /**
     * {@link #sell}, unless a holder with a later fencing token read or wrote first: then nothing is written.
     *
     * @throws Refusal 503 when a later token read or wrote first
     */
    public long sellFenced(String product, long left, int quantity, long token) {
        long number = (Long) redis.eval(FENCED_SALE, List.of(key(product)),
                List.of(Long.toString(left), Integer.toString(quantity), Long.toString(token)));
        if (number == 0) {
            throw stale(product, token);
        }
        return number;
    }

    private static Refusal stale(String product, long token) {
        log.warn("Refused token {} on {}: a later holder of its lock read or wrote the stock first", token, product);
        return Refusal.staleToken(product, token);
    }

    static String key(String product) {
        return "inventory:product:" + product;
    }

    static String script(String name) {
        try (InputStream in = Stock.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
