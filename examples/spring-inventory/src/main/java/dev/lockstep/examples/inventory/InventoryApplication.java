package dev.lockstep.examples.inventory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The source articles' inventory service: an HTTP endpoint that takes a product's lock, reads its
 * stock, works, and writes the stock back, on the lock of the stage {@code lockstep.kind} names (the Lockstep starter wires it).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class InventoryApplication {

    /** Starts the service; Spring's {@code --name=value} arguments override {@code application.properties}. */
    public static void main(String[] args) {
        SpringApplication.run(InventoryApplication.class, args);
    }
}
