package io.mvsink.cli;

import io.mvsink.config.MvsinkConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "health", description = "Asks a running sink's HTTP endpoint (option http.port) whether it is "
    + "healthy and prints its answer: exit 0 when UP, 1 when DOWN or unreachable. For container health checks.")
final class HealthCommand implements Callable<Integer> {
    @Mixin
    Settings settings;

    @Option(names = "--url", paramLabel = "URL",
        description = "The endpoint to ask (default: http://127.0.0.1:<http.port>/health).")
    String url;

    @Option(names = "--live", description = "Ask only whether the stream threads run (/health/live), not whether "
        + "seals advance.")
    boolean live;

    @Override
    public Integer call() {
        URI target = URI.create(url != null ? url : local());
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(5))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
            System.out.print(response.body());
            return response.statusCode() == 200 ? 0 : 1;
        } catch (java.io.IOException e) {
            System.err.println("mvsink: health: no answer from " + target + ": " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private String local() {
        String port = settings.properties().getProperty(MvsinkConfig.HTTP_PORT, "0").trim();
        if (port.isEmpty() || port.equals("0")) {
            throw new IllegalArgumentException("health: set " + MvsinkConfig.HTTP_PORT + " (MVSINK_HTTP_PORT, as for run) "
                + "or --url");
        }
        return "http://127.0.0.1:" + port + (live ? "/health/live" : "/health");
    }
}
