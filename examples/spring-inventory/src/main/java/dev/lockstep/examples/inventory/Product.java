package dev.lockstep.examples.inventory;

/**
 * A product as {@code GET /products/{id}} shows it.
 *
 * @param id     its id
 * @param stock  units in stock
 * @param price  what a unit costs an account order
 * @param sold   units sold since it was last restocked
 * @param orders orders taken since then
 */
public record Product(String id, long stock, long price, long sold, long orders) {
}
