package io.mvsink.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

class RegistryReadinessTest {
    private static final String URL = "http://registry.example:8080/apis/ccompat/v7";

    private final MockTime time = new MockTime();

    @Test
    void shouldWaitUntilTheRegistryAnswers() {
        FlakyRegistry registry = new FlakyRegistry(3, null);

        RegistryReadiness.await(registry, "s-value", URL, 60_000, time);

        assertEquals(4, registry.calls.get());
        assertTrue(time.milliseconds() >= 3_000, "waited between attempts");
    }

    @Test
    void shouldGiveUpAfterTheTimeoutWithAMessageThatSaysWhatToFix() {
        FlakyRegistry registry = new FlakyRegistry(Integer.MAX_VALUE, null);

        RegistryUnavailableException e = assertThrows(RegistryUnavailableException.class,
            () -> RegistryReadiness.await(registry, "s-value", URL, 5_000, time));

        assertTrue(e.getMessage().contains(URL), e.getMessage());
        assertTrue(e.getMessage().contains("schema.registry.url"), e.getMessage());
        assertTrue(e.getMessage().contains("5000 ms"), e.getMessage());
        assertTrue(registry.calls.get() >= 5 && registry.calls.get() <= 7, "about one attempt a second");
    }

    @Test
    void shouldTryOnceWithATimeoutOfZero() {
        FlakyRegistry registry = new FlakyRegistry(Integer.MAX_VALUE, null);

        assertThrows(RegistryUnavailableException.class, () -> RegistryReadiness.await(registry, "s", URL, 0, time));
        assertEquals(1, registry.calls.get());
    }

    @Test
    void shouldNotRetryARefusal() {
        FlakyRegistry registry = new FlakyRegistry(0, new RegistryRequestException("401 unauthorized", 401));

        RegistryRequestException e = assertThrows(RegistryRequestException.class,
            () -> RegistryReadiness.await(registry, "s", URL, 60_000, time));

        assertEquals(1, registry.calls.get());
        assertEquals(401, e.status());
        assertTrue(e.getMessage().contains("schema.registry.basic.auth.user.info"), e.getMessage());
    }

    @Test
    void shouldPointAtTheBaseUrlWhenTheApiIsNotFound() {
        FlakyRegistry registry = new FlakyRegistry(0, new UnknownSchemaException("HTTP 404"));

        RegistryRequestException e = assertThrows(RegistryRequestException.class,
            () -> RegistryReadiness.await(registry, "s", URL, 60_000, time));

        assertTrue(e.getMessage().contains("ccompat"), e.getMessage());
    }

    /** Unreachable for the first {@code failures} calls, then answers (or throws {@code refusal}). */
    private static final class FlakyRegistry implements SchemaRegistry {
        final AtomicInteger calls = new AtomicInteger();
        private final int failures;
        private final RuntimeException refusal;

        FlakyRegistry(int failures, RuntimeException refusal) {
            this.failures = failures;
            this.refusal = refusal;
        }

        @Override
        public String compatibility(String subject) {
            if (calls.incrementAndGet() <= failures) {
                throw new RegistryUnavailableException("connection refused", null);
            }
            if (refusal != null) {
                throw refusal;
            }
            return "BACKWARD";
        }

        @Override
        public int register(String subject, Schema schema) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Schema schemaById(int id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SubjectVersion latest(String subject) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isVersionOf(String subject, int id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void setCompatibility(String subject, String level) {
            throw new UnsupportedOperationException();
        }
    }
}
