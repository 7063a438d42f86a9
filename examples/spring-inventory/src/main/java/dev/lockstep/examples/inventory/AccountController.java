package dev.lockstep.examples.inventory;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The HTTP face of the customers' accounts: a balance, a funding, and an order the account pays for. */
@RestController
@RequestMapping("/accounts/{id}")
class AccountController {

    private final Accounts accounts;
    private final OrderService orders;

    AccountController(Accounts accounts, OrderService orders) {
        this.accounts = accounts;
        this.orders = orders;
    }

    /** The account's balance and the orders it paid for since it was funded. */
    @GetMapping
    Account account(@PathVariable String id) {
        return accounts.find(InventoryController.checked("an account id", id)).orElseThrow(() -> Refusal.unknownAccount(id));
    }

    /** Sets the account's balance (creating it) and zeroes its counts: {@code {"balance": 100}}. */
    @PutMapping
    Account fund(@PathVariable String id, @RequestBody Funding body) {
        if (body.balance() == null || body.balance() < 0) {
            throw Refusal.badInput("balance must be given and not negative, was " + body.balance());
        }
        return accounts.fund(InventoryController.checked("an account id", id), body.balance());
    }

    /**
     * Sells {@code {"product": "p1", "quantity": n}} to the account: 201, or 404, 409, 503 as
     * {@link OrderService#order(String, String, int)} says.
     */
    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.CREATED)
    Purchase order(@PathVariable String id, @RequestBody PurchaseRequest body) throws InterruptedException {
        if (body.product() == null) {
            throw Refusal.badInput("product must be given");
        }
        if (body.quantity() == null || body.quantity() < 1) {
            throw Refusal.badInput("quantity must be given and at least 1, was " + body.quantity());
        }
        return orders.order(InventoryController.checked("an account id", id), InventoryController.checked("a product id", body.product()),
                body.quantity());
    }

    /** The body of a funding. */
    record Funding(Long balance) {
    }

    /** The body of an account order. */
    record PurchaseRequest(String product, Integer quantity) {
    }
}
