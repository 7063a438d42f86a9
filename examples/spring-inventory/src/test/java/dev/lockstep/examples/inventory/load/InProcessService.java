package dev.lockstep.examples.inventory.load;

import dev.lockstep.examples.inventory.InventoryApplication;
import dev.lockstep.testkit.fixture.RedisNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** The service in this JVM, on a port of its own, against a testkit node, with a client to call it. */
public final class InProcessService implements Instance {

    private final ConfigurableApplicationContext context;
    private final HttpClient http;
    private final URI uri;

    /** Starts the service on {@code node} with Spring's {@code --name=value} {@code settings}. */
    public InProcessService(RedisNode node, HttpClient http, List<String> settings) {
        // Warnings only: the tests' output stays readable.
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--logging.level.root=warn",
                "--lockstep.redis.host=" + node.address().getHost(),
                "--lockstep.redis.port=" + node.address().getPort()));
        args.addAll(settings);
        this.context = SpringApplication.run(InventoryApplication.class, args.toArray(String[]::new));
        this.http = http;
        this.uri = URI.create("http://localhost:" + ((WebServerApplicationContext) context).getWebServer().getPort());
    }

    /** The answer to {@code method path} with {@code json} as the body (null: none). */
    public HttpResponse<String> call(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public void close() {
        context.close();
    }
}
