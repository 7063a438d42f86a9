package dev.lockstep.examples.inventory;

import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The HTTP face of the service: a product's stock, a restock, and an order. */
@RestController
@RequestMapping("/products/{id}")
class InventoryController {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** The highest unit price: a quantity (an int) times it stays far inside a long. */
    private static final long MAX_PRICE = 1_000_000_000;

    private final Stock stock;
    private final OrderService orders;

    InventoryController(Stock stock, OrderService orders) {
        this.stock = stock;
        this.orders = orders;
    }

    /** The product's stock and the orders taken since it was restocked. */
    @GetMapping
    Product product(@PathVariable String id) {
        return stock.find(checked("a product id", id)).orElseThrow(() -> Refusal.unknownProduct(id));
    }

    /**
     * Sets the product's stock and unit price (creating it) and zeroes its counts:
     * {@code {"stock": 100, "price": 5}}; without a price a unit costs 1.
     */
    @PutMapping
    Product restock(@PathVariable String id, @RequestBody Restock body) {
        if (body.stock() == null || body.stock() < 0) {
            throw Refusal.badInput("stock must be given and not negative, was " + body.stock());
        }
        long price = body.price() == null ? 1 : body.price();
        if (price < 0 || price > MAX_PRICE) {
            throw Refusal.badInput("price must be 0 to " + MAX_PRICE + ", was " + price);
        }
        return stock.restock(checked("a product id", id), body.stock(), price);
    }

    /** Sells {@code {"quantity": n}} units: 201, or 404, 409, 503 as {@link OrderService#order} says. */
    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.CREATED)
    Order order(@PathVariable String id, @RequestBody OrderRequest body) throws InterruptedException {
        if (body.quantity() == null || body.quantity() < 1) {
            throw Refusal.badInput("quantity must be given and at least 1, was " + body.quantity());
        }
        return orders.order(checked("a product id", id), body.quantity());
    }

    /** {@code id}, when it is valid as {@code what} ("a product id", "an account id"). */
    static String checked(String what, String id) {
        if (!ID.matcher(id).matches()) {
            throw Refusal.badInput(what + " is 1 to 64 letters, digits, '-' or '_', was \"" + id + "\"");
        }
        return id;
    }

    /** The body of a restock. */
    record Restock(Long stock, Long price) {
    }

    /** The body of an order. */
    record OrderRequest(Integer quantity) {
    }
}
