package dev.lockstep.examples.inventory;

/**
 * A customer's account as {@code GET /accounts/{id}} shows it.
 *
 * @param id      the customer's id
 * @param balance what the customer may still spend
 * @param spent   what the customer's orders cost since the account was last funded
 * @param orders  orders taken since then
 */
public record Account(String id, long balance, long spent, long orders) {
}
