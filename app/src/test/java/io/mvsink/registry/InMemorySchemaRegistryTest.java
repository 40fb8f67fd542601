package io.mvsink.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

class InMemorySchemaRegistryTest {
    private static final Schema V1 = SchemaBuilder.record("Row").fields().requiredLong("id").endRecord();
    private static final Schema V2_WITH_DEFAULT = SchemaBuilder.record("Row").fields()
            .requiredLong("id").optionalString("name").endRecord();
    private static final Schema V2_WITHOUT_DEFAULT = SchemaBuilder.record("Row").fields()
            .requiredLong("id").requiredString("name").endRecord();

    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();

    @Test
    void shouldAssignIdsFromOne() {
        assertEquals(1, registry.register("a", V1));
        assertEquals(2, registry.register("a", V2_WITH_DEFAULT));
    }

    @Test
    void shouldReturnSameIdForSameSchema() {
        int id = registry.register("a", V1);

        assertEquals(id, registry.register("a", new Schema.Parser().parse(V1.toString())));
        assertEquals(List.of(id), registry.versions("a"));
    }

    @Test
    void shouldShareIdAcrossSubjects() {
        assertEquals(registry.register("a", V1), registry.register("b", V1));
        assertEquals(List.of(1), registry.versions("b"));
    }

    @Test
    void shouldFindSchemaById() {
        assertEquals(V1, registry.schemaById(registry.register("a", V1)));
    }

    @Test
    void shouldThrowUnknownSchemaForUnknownId() {
        assertThrows(UnknownSchemaException.class, () -> registry.schemaById(1));
    }

    @Test
    void shouldDefaultToBackwardAndStoreSubjectLevel() {
        assertEquals("BACKWARD", registry.compatibility("a"));

        registry.setCompatibility("a", "FULL");
        registry.setDefaultCompatibility("NONE");

        assertEquals("FULL", registry.compatibility("a"));
        assertEquals("NONE", registry.compatibility("b"));
    }

    @Test
    void shouldRefuseUnknownLevelWith422() {
        RegistryRequestException e = assertThrows(RegistryRequestException.class,
                () -> registry.setCompatibility("a", "SIDEWAYS"));
        assertEquals(422, e.status());
    }

    @Test
    void shouldRefuseBackwardIncompatibleVersionWith409() {
        registry.setCompatibility("a", "BACKWARD");
        registry.register("a", V1);

        RegistryRequestException e = assertThrows(RegistryRequestException.class,
                () -> registry.register("a", V2_WITHOUT_DEFAULT));
        assertEquals(409, e.status());
        assertEquals(List.of(1), registry.versions("a"));
    }

    @Test
    void shouldAcceptBackwardCompatibleVersion() {
        registry.register("a", V1);

        assertEquals(2, registry.register("a", V2_WITH_DEFAULT));
    }

    @Test
    void shouldAcceptAnythingUnderNone() {
        registry.setCompatibility("a", "NONE");
        registry.register("a", V1);

        assertEquals(2, registry.register("a", V2_WITHOUT_DEFAULT));
    }
}
