package io.mvsink.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RegistryClientTest {
    private static final String PASSWORD = "s3cret-Pa55";
    private static final Schema ROW = SchemaBuilder.record("Row").namespace("t").fields()
            .requiredLong("id").optionalString("name").endRecord();

    private FakeRegistryServer server;
    private RegistryClient client;

    @BeforeEach
    void start() throws IOException {
        server = new FakeRegistryServer();
        client = new RegistryClient(RegistrySettings.of(server.baseUrl()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void shouldRegisterSchemaAsJsonStringAndReturnId() {
        server.answer("POST", "/subjects/rows-value/versions", 200, "{\"id\":7}");

        assertEquals(7, client.register("rows-value", ROW));

        FakeRegistryServer.Request request = server.requests().get(0);
        assertEquals("application/vnd.schemaregistry.v1+json", request.contentType());
        assertTrue(request.accept().contains("application/json"), request.accept());
        assertTrue(request.body().contains("\"schema\":\"{\\\"type\\\":\\\"record\\\""), request.body());
        assertNull(request.authorization());
    }

    @Test
    void shouldCacheIdBySubjectAndSchema() {
        server.answer("POST", "/subjects/rows-value/versions", 200, "{\"id\":7}");
        client.register("rows-value", ROW);

        assertEquals(7, client.register("rows-value", new Schema.Parser().parse(ROW.toString())));
        assertEquals(1, server.requests().size());
    }

    @Test
    void shouldRegisterAgainUnderAnotherSubject() {
        server.answer("POST", "/subjects/a/versions", 200, "{\"id\":7}");
        server.answer("POST", "/subjects/b/versions", 200, "{\"id\":7}");

        client.register("a", ROW);
        client.register("b", ROW);

        assertEquals(2, server.requests().size());
    }

    @Test
    void shouldCacheSchemaById() {
        server.answer("GET", "/schemas/ids/3", 200, "{\"schema\":" + quoted(ROW.toString()) + "}");

        assertEquals(ROW, client.schemaById(3));
        assertEquals(ROW, client.schemaById(3));
        assertEquals(1, server.requests().size());
    }

    @Test
    void shouldKnowRegisteredSchemaByIdWithoutFetching() {
        server.answer("POST", "/subjects/rows-value/versions", 200, "{\"id\":7}");
        client.register("rows-value", ROW);

        assertEquals(ROW, client.schemaById(7));
        assertEquals(1, server.requests().size());
    }

    @Test
    void shouldSendBasicAuthHeader() {
        client = new RegistryClient(RegistrySettings.of(server.baseUrl()).withBasicAuth("sink", PASSWORD));
        server.answer("POST", "/subjects/rows-value/versions", 200, "{\"id\":1}");

        client.register("rows-value", ROW);

        String expected = "Basic " + Base64.getEncoder().encodeToString(("sink:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        assertEquals(expected, server.requests().get(0).authorization());
    }

    @Test
    void shouldUrlEncodeSubject() {
        server.answer("POST", "/subjects/my%20topic%2Fv%C3%A4lue/versions", 200, "{\"id\":2}");

        assertEquals(2, client.register("my topic/välue", ROW));
    }

    @Test
    void shouldMapNotFoundToUnknownSchema() {
        server.answer("GET", "/schemas/ids/99", 404, "{\"error_code\":40403,\"message\":\"Schema 99 not found\"}");

        UnknownSchemaException e = assertThrows(UnknownSchemaException.class, () -> client.schemaById(99));
        assertTrue(e.getMessage().contains("Schema 99 not found"), e.getMessage());
        assertTrue(e.getMessage().contains("/schemas/ids/99"), e.getMessage());
    }

    @Test
    void shouldMapConflictToRequestExceptionWithStatusAndRegistryMessage() {
        server.answer("POST", "/subjects/s/versions", 409, "{\"error_code\":409,\"message\":\"incompatible\"}");

        RegistryRequestException e = assertThrows(RegistryRequestException.class, () -> client.register("s", ROW));
        assertEquals(409, e.status());
        assertTrue(e.getMessage().contains("incompatible") && e.getMessage().contains("409"), e.getMessage());
    }

    @Test
    void shouldMapUnprocessableToRequestException() {
        server.answer("PUT", "/config/s", 422, "{\"error_code\":42203,\"message\":\"Invalid compatibility level\"}");

        RegistryRequestException e = assertThrows(RegistryRequestException.class, () -> client.setCompatibility("s", "SIDEWAYS"));
        assertEquals(422, e.status());
        assertTrue(e.getMessage().contains("Invalid compatibility level"), e.getMessage());
    }

    @Test
    void shouldMapServerErrorToUnavailable() {
        server.answer("GET", "/schemas/ids/1", 500, "oops, not json");

        RegistryUnavailableException e = assertThrows(RegistryUnavailableException.class, () -> client.schemaById(1));
        assertTrue(e.getMessage().contains("500") && e.getMessage().contains("oops"), e.getMessage());
    }

    @Test
    void shouldMapUnreachableRegistryToUnavailable() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        client = new RegistryClient(RegistrySettings.of("http://127.0.0.1:" + closedPort + "/apis/ccompat/v7"));

        assertThrows(RegistryUnavailableException.class, () -> client.schemaById(1));
    }

    @Test
    void shouldMapTimeoutToUnavailable() throws IOException {
        try (ServerSocket silent = new ServerSocket(0)) {
            client = new RegistryClient(RegistrySettings.of("http://127.0.0.1:" + silent.getLocalPort())
                    .withRequestTimeout(Duration.ofMillis(200)));

            assertThrows(RegistryUnavailableException.class, () -> client.schemaById(1));
        }
    }

    @Test
    void shouldNeverPutPasswordInMessagesOrToString() throws IOException {
        RegistrySettings settings = RegistrySettings.of(server.baseUrl()).withBasicAuth("sink", PASSWORD);
        client = new RegistryClient(settings);
        server.answer("POST", "/subjects/s/versions", 409, "{\"message\":\"no\"}");
        server.answer("GET", "/schemas/ids/1", 500, "{}");
        List<RuntimeException> errors = List.of(
                assertThrows(RegistryException.class, () -> client.register("s", ROW)),
                assertThrows(RegistryException.class, () -> client.schemaById(1)),
                assertThrows(RegistryException.class, () -> client.schemaById(2)));
        server.close();
        RuntimeException unreachable = assertThrows(RegistryUnavailableException.class, () -> client.schemaById(3));

        String encoded = Base64.getEncoder().encodeToString(("sink:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        for (String text : List.of(errors.get(0).getMessage(), errors.get(1).getMessage(), errors.get(2).getMessage(),
                unreachable.getMessage(), client.toString(), settings.toString())) {
            assertFalse(text.contains(PASSWORD) || text.contains(encoded), text);
        }
    }

    @Test
    void shouldSetCompatibilityOfSubject() {
        server.answer("PUT", "/config/s", 200, "{\"compatibility\":\"BACKWARD\"}");

        client.setCompatibility("s", "BACKWARD");

        assertEquals("{\"compatibility\":\"BACKWARD\"}", server.requests().get(0).body());
    }

    @Test
    void shouldReadCompatibilityOfSubject() {
        server.answer("GET", "/config/s", 200, "{\"compatibilityLevel\":\"FULL\"}");

        assertEquals("FULL", client.compatibility("s"));
    }

    @Test
    void shouldFallBackToGlobalCompatibilityWhenSubjectHasNone() {
        server.answer("GET", "/config/s", 404, "{\"error_code\":40408,\"message\":\"none\"}");
        server.answer("GET", "/config", 200, "{\"compatibilityLevel\":\"NONE\"}");

        assertEquals("NONE", client.compatibility("s"));
    }

    @Test
    void shouldDecideAVersionFromTheRegistrysListOfTheIdsVersionsAndCacheOnlyYes() {
        server.answer("GET", "/schemas/ids/7/versions", 200,
                "[{\"subject\":\"other-value\",\"version\":3},{\"subject\":\"rows-value\",\"version\":1}]");

        assertTrue(client.isVersionOf("rows-value", 7));
        assertTrue(client.isVersionOf("rows-value", 7));
        assertFalse(client.isVersionOf("orders-value", 7));
        assertFalse(client.isVersionOf("orders-value", 7));
        assertEquals(3, server.requests().size(), "a yes is cached, a no is asked again");
    }

    @Test
    void shouldLookTheRegistrysOwnTextUpNormalizedWhenTheVersionsCallIsNotServed() {
        String registered = "{\n  \"type\": \"record\", \"name\": \"Row\", \"namespace\": \"t\",\n"
                + "  \"fields\": [{\"name\": \"id\", \"type\": \"long\"}]\n}";
        server.answer("GET", "/schemas/ids/7", 200, "{\"schema\":" + quoted(registered) + "}");
        server.answer("POST", "/subjects/rows-value", 200, "{\"subject\":\"rows-value\",\"id\":7,\"version\":1}");

        assertTrue(client.isVersionOf("rows-value", 7));
        FakeRegistryServer.Request lookup = server.requests().get(server.requests().size() - 1);
        assertEquals("/subjects/rows-value", lookup.path());
        assertEquals("normalize=true", lookup.query());
        assertEquals("{\"schema\":" + quoted(registered) + "}", lookup.body());
        assertFalse(client.isVersionOf("orders-value", 7));
    }

    @Test
    void shouldRejectBaseUrlWithCredentials() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrySettings.of("http://sink:" + PASSWORD + "@127.0.0.1:1/apis"));
        assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
