package io.mvsink.registry;

import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link RegistryClient} against a real Apicurio Registry 2.6.13 ccompat API.
 *
 * <p>Quirks of Apicurio's ccompat v7 seen here: {@code schemaType} may be left out (AVRO is
 * assumed); the global default level is {@code NONE}, not Confluent's {@code BACKWARD}; GET
 * /config/{subject} of an existing subject without its own rule answers 200 with the global
 * level, of an unknown subject 404 (40401); an incompatible version is 409 with error_code 409;
 * an invalid level is 400 with a plain-text body; an unparsable schema is 422 (42201); an
 * unknown id is 404 (40403). Ids are content ids: the same text under two subjects gets one id,
 * but the same schema with other whitespace is new content (a new version and id).
 */
@ExtendWith(LocalStackExtension.class)
class RegistryClientIT {
    private static final Schema V1 = SchemaBuilder.record("Row").namespace("it").fields()
            .requiredLong("id").endRecord();
    private static final Schema V2_BREAKING = SchemaBuilder.record("Row").namespace("it").fields()
            .requiredLong("id").requiredString("name").endRecord();
    private static final Schema V2_COMPATIBLE = SchemaBuilder.record("Row").namespace("it").fields()
            .requiredLong("id").optionalString("name").endRecord();

    private static RegistrySettings settings;

    @BeforeAll
    static void connect(LocalStack stack) {
        settings = RegistrySettings.of(stack.registryUrl());
    }

    @Test
    void shouldRegisterAndFetchSchemaById() {
        int id = new RegistryClient(settings).register(subject(), V1);

        assertEquals(V1, new RegistryClient(settings).schemaById(id));
    }

    @Test
    void shouldReturnSameIdWhenRegisteringAgain() {
        String subject = subject();
        int id = new RegistryClient(settings).register(subject, V1);

        assertEquals(id, new RegistryClient(settings).register(subject, V1));
    }

    @Test
    void shouldAnswerTheLatestVersionOfASubjectAfterEachRegistration() {
        RegistryClient client = new RegistryClient(settings);
        String subject = subject();
        assertThrows(UnknownSchemaException.class, () -> client.latest(subject));
        int v1 = client.register(subject, V1);
        assertEquals(new SubjectVersion(subject, v1, V1), client.latest(subject));

        client.setCompatibility(subject, "BACKWARD");
        int v2 = client.register(subject, V2_COMPATIBLE);

        SubjectVersion latest = client.latest(subject);
        assertEquals(v2, latest.id());
        assertEquals(V2_COMPATIBLE, latest.schema());
    }

    @Test
    void shouldSetAndReadBackCompatibility() {
        RegistryClient client = new RegistryClient(settings);
        String subject = subject();
        client.register(subject, V1);

        client.setCompatibility(subject, "BACKWARD");

        assertEquals("BACKWARD", client.compatibility(subject));
    }

    @Test
    void shouldFallBackToGlobalLevelForUnknownSubject() {
        assertEquals("NONE", new RegistryClient(settings).compatibility(subject()));
    }

    @Test
    void shouldRefuseBackwardIncompatibleVersionWith409() {
        RegistryClient client = new RegistryClient(settings);
        String subject = subject();
        client.register(subject, V1);
        client.setCompatibility(subject, "BACKWARD");

        RegistryRequestException e = assertThrows(RegistryRequestException.class, () -> client.register(subject, V2_BREAKING));
        assertEquals(409, e.status());
        assertTrue(e.getMessage().contains("Incompatible"), e.getMessage());
        assertTrue(client.register(subject, V2_COMPATIBLE) > 0);
    }

    @Test
    void shouldRefuseInvalidLevelAsBadRequest() {
        RegistryClient client = new RegistryClient(settings);
        String subject = subject();
        client.register(subject, V1);

        RegistryRequestException e = assertThrows(RegistryRequestException.class, () -> client.setCompatibility(subject, "SIDEWAYS"));
        assertEquals(400, e.status());
    }

    @Test
    void shouldThrowUnknownSchemaForUnknownId() {
        assertThrows(UnknownSchemaException.class, () -> new RegistryClient(settings).schemaById(987_654));
    }

    @Test
    void shouldRoundTripRowThroughRealRegistry() {
        String subject = subject();
        GenericRecord row = new GenericData.Record(V1);
        row.put("id", 42L);

        byte[] framed = new AvroRowCodec(new RegistryClient(settings), subject).serialize(row);

        assertEquals(row, new AvroRowCodec(new RegistryClient(settings), subject).deserialize(framed));
    }

    /** A producer in another language registers its {@code .avsc} file as written: indented, several lines. */
    @Test
    void shouldCountAnIdRegisteredAsIndentedMultiLineTextAsAVersion() {
        String subject = subject();
        int id = registerText(subject, """
                {
                  "type": "record",
                  "name": "Row",
                  "namespace": "it",
                  "fields": [
                    { "name": "id", "type": "long" }
                  ]
                }
                """);

        assertTrue(new RegistryClient(settings).isVersionOf(subject, id), "id " + id + " of " + subject);
    }

    @Test
    void shouldCountAnIdRegisteredWithItsAttributesInAnotherOrderAsAVersion() {
        String subject = subject();
        int id = registerText(subject,
                "{\"fields\":[{\"type\":\"long\",\"name\":\"id\"}],\"namespace\":\"it\",\"name\":\"Row\",\"type\":\"record\"}");

        assertTrue(new RegistryClient(settings).isVersionOf(subject, id), "id " + id + " of " + subject);
    }

    @Test
    void shouldCountAnIdRegisteredWithDocAttributesAsAVersion() {
        String subject = subject();
        int id = registerText(subject, """
                {"type": "record", "name": "Row", "namespace": "it", "doc": "one row of the view",
                 "fields": [{"name": "id", "type": "long", "doc": "the row's key"}]}
                """);

        assertTrue(new RegistryClient(settings).isVersionOf(subject, id), "id " + id + " of " + subject);
    }

    @Test
    void shouldCountAnEvolvedVersionRegisteredAsTextAsAVersionAndNotOfAnotherSubject() {
        String subject = subject();
        registerText(subject, """
                {
                  "type": "record", "name": "Row", "namespace": "it",
                  "fields": [ { "name": "id", "type": "long" } ]
                }
                """);
        new RegistryClient(settings).setCompatibility(subject, "BACKWARD");
        int v2 = registerText(subject, """
                {
                  "type": "record", "name": "Row", "namespace": "it",
                  "fields": [
                    { "name": "id", "type": "long" },
                    { "name": "name", "type": ["null", "string"], "default": null, "doc": "added in v2" }
                  ]
                }
                """);

        RegistryClient client = new RegistryClient(settings);
        assertTrue(client.isVersionOf(subject, v2), "id " + v2 + " of " + subject);
        assertFalse(client.isVersionOf(subject(), v2), "id " + v2 + " under a subject it was never registered in");
    }

    @Test
    void shouldNotCountAnUnknownIdAsAVersion() {
        assertFalse(new RegistryClient(settings).isVersionOf(subject(), 987_655));
    }

    /** Registers {@code text} as it is, with the JDK's HTTP client: not through our client's rendering. */
    private static int registerText(String subject, String text) {
        return RawRegistration.registerText(settings.baseUrl(), subject, text);
    }

    private static String subject() {
        return "it rows/" + UUID.randomUUID() + "-value";
    }
}
