package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each service of the integration tests' stack is really up and does what mvsink needs. */
@ExtendWith(LocalStackExtension.class)
class LocalStackIT {

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void shouldCommitATransactionOnTheSingleBroker(LocalStack stack) throws Exception {
        KafkaRoundTrip.createTopic(stack.bootstrapServers(), "stack-smoke");
        KafkaRoundTrip.produceInTransaction(stack.bootstrapServers(), "stack-smoke", "tx-stack-smoke", "k", "v");
        assertEquals(List.of("k=v"), KafkaRoundTrip.readCommitted(stack.bootstrapServers(), "stack-smoke", 1));
    }

    @Test
    void shouldRegisterASchemaAndGiveItAnId(LocalStack stack) throws Exception {
        HttpRequest register = HttpRequest.newBuilder(URI.create(stack.registryUrl() + "/subjects/x-value/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"schema\":\"{\\\"type\\\":\\\"string\\\"}\"}"))
                .timeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> response = http.send(register, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().matches("\\{\\s*\"id\"\\s*:\\s*\\d+\\s*}"), response.body());
    }

    @Test
    void shouldAnswerHttpOnTheBlobEndpoint(LocalStack stack) throws Exception {
        String endpoint = blobEndpoint(stack.blobConnectionString());
        HttpRequest list = HttpRequest.newBuilder(URI.create(endpoint + "?comp=list"))
                .timeout(Duration.ofSeconds(10)).GET().build();
        int status = http.send(list, HttpResponse.BodyHandlers.discarding()).statusCode();
        assertTrue(status >= 200 && status < 500, "Azurite answered " + status);
        assertTrue(stack.blobConnectionString().contains("AccountName=devstoreaccount1;"));
    }

    private static String blobEndpoint(String connectionString) {
        for (String part : connectionString.split(";")) {
            if (part.startsWith("BlobEndpoint=")) {
                return part.substring("BlobEndpoint=".length());
            }
        }
        throw new AssertionError("no BlobEndpoint in " + connectionString);
    }
}
