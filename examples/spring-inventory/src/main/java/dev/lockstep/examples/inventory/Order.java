package dev.lockstep.examples.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An order the service took, as {@code POST /products/{id}/orders} answers it.
 *
 * @param product   the product's id
 * @param quantity  units sold
 * @param stockLeft the stock this order wrote back
 * @param number    the order's number for this product
 * @param token     the fencing token the write carried; absent before stage 7
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Order(String product, int quantity, long stockLeft, long number, Long token) {
}
