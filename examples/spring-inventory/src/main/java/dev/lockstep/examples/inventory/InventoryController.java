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

    private final Stock stock;
    private final OrderService orders;

    InventoryController(Stock stock, OrderService orders) {
        this.stock = stock;
        this.orders = orders;
    }

    /** The product's stock and the orders taken since it was restocked. */
    @GetMapping
    Product product(@PathVariable String id) {
        return stock.find(checked(id)).orElseThrow(() -> Refusal.unknownProduct(id));
    }

    /** Sets the product's stock (creating it) and zeroes its counts: {@code {"stock": 100}}. */
    @PutMapping
    Product restock(@PathVariable String id, @RequestBody Restock body) {
        if (body.stock() == null || body.stock() < 0) {
            throw Refusal.badInput("stock must be given and not negative, was " + body.stock());
        }
        return stock.restock(checked(id), body.stock());
    }

    /** Sells {@code {"quantity": n}} units: 201, or 404, 409, 503 as {@link OrderService#order} says. */
    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.CREATED)
    Order order(@PathVariable String id, @RequestBody OrderRequest body) throws InterruptedException {
        if (body.quantity() == null || body.quantity() < 1) {
            throw Refusal.badInput("quantity must be given and at least 1, was " + body.quantity());
        }
        return orders.order(checked(id), body.quantity());
    }

    private static String checked(String id) {
        if (!ID.matcher(id).matches()) {
            throw Refusal.badInput("a product id is 1 to 64 letters, digits, '-' or '_', was \"" + id + "\"");
        }
        return id;
    }

    /** The body of a restock. */
    record Restock(Long stock) {
    }

    /** The body of an order. */
    record OrderRequest(Integer quantity) {
    }
}
