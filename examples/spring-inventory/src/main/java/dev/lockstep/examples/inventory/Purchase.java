package dev.lockstep.examples.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An order a customer's account paid for, as {@code POST /accounts/{id}/orders} answers it.
 *
 * @param customer     the customer's id
 * @param product      the product's id
 * @param quantity     units sold
 * @param cost         what the units cost: the quantity times the product's price
 * @param stockLeft    the stock this order wrote back
 * @param balanceLeft  the balance this order wrote back
 * @param number       the order's number for this customer
 * @param productToken the product lock's fencing token; absent before stage 7
 * @param accountToken the account lock's fencing token; absent before stage 7
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Purchase(String customer, String product, int quantity, long cost, long stockLeft, long balanceLeft,
                       long number, Long productToken, Long accountToken) {
}
