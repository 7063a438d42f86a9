package dev.lockstep.examples.inventory.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Orders of one unit fired at the instances over real HTTP: each instance gets half of them from
 * its own workers, so that while one instance is paused the other keeps selling.
 */
final class OrderLoad {

    /** Longer than any pause: an order sent to a paused instance waits for it. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** How long the other instances' orders wait for the first instance to reach its cue. */
    static final Duration OTHERS_WAIT_AT_MOST = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** What the service answered one order, and how long it took. */
    record Answer(int status, long nanos) {
    }

    /** Sets each of {@code products} products to {@code stock} units through {@code instance}. */
    void restock(URI instance, int products, long stock) throws IOException, InterruptedException {
        for (int product = 0; product < products; product++) {
            HttpRequest restock = json(instance.resolve("/products/" + productId(product)))
                    .PUT(body("{\"stock\": " + stock + "}")).build();
            HttpResponse<String> response = http.send(restock, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("restock answered " + response.statusCode() + ": " + response.body());
            }
        }
    }

    /** The {@code GET /products/{id}} body of {@code product}. */
    String product(URI instance, int product) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(instance.resolve("/products/" + productId(product))).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /**
     * Fires {@code orders} orders, half at each instance, spread over {@code products} products,
     * {@code workersPerInstance} at a time per instance: the first instance's at once, the others'
     * once {@code othersAfter} completes (or {@link #OTHERS_WAIT_AT_MOST} passed); returns every answer.
     */
    List<Answer> fire(List<URI> instances, int products, int orders, int workersPerInstance,
            CompletableFuture<?> othersAfter) throws Exception {
        List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
        ExecutorService workers = Executors.newFixedThreadPool(instances.size() * workersPerInstance);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < instances.size(); i++) {
                URI instance = instances.get(i);
                CompletableFuture<?> start = i == 0 ? CompletableFuture.completedFuture(null) : othersAfter;
                AtomicInteger next = new AtomicInteger();
                int share = orders / instances.size();
                for (int w = 0; w < workersPerInstance; w++) {
                    done.add(workers.submit(() -> {
                        try {
                            start.get(OTHERS_WAIT_AT_MOST.toMillis(), TimeUnit.MILLISECONDS);
                        } catch (TimeoutException late) {
                            // The first instance never got there: the others go ahead, and the run says what it missed.
                        }
                        for (int order = next.getAndIncrement(); order < share; order = next.getAndIncrement()) {
                            answers.add(order(instance, order % products));
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> worker : done) {
                worker.get();
            }
        } finally {
            workers.shutdownNow();
        }
        return answers;
    }

    private Answer order(URI instance, int product) throws IOException, InterruptedException {
        URI uri = instance.resolve("/products/" + productId(product) + "/orders");
        long start = System.nanoTime();
        HttpResponse<Void> response = http.send(json(uri).POST(body("{\"quantity\": 1}")).build(),
                HttpResponse.BodyHandlers.discarding());
        return new Answer(response.statusCode(), System.nanoTime() - start);
    }

    static String productId(int product) {
        return "p" + product;
    }

    private static HttpRequest.Builder json(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json");
    }

    private static HttpRequest.BodyPublisher body(String json) {
        return HttpRequest.BodyPublishers.ofString(json);
    }
}
