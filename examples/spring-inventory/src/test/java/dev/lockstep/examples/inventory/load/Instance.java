package dev.lockstep.examples.inventory.load;

import java.net.URI;

/** A running instance of the service; closing it shuts it down as a deployment does. */
public interface Instance extends AutoCloseable {

    /** Where it answers HTTP. */
    URI uri();

    @Override
    void close();
}
