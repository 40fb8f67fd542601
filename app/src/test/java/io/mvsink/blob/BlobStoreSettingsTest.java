package io.mvsink.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BlobStoreSettingsTest {
    private static final String KEY = "c2VjcmV0LWtleQ==";
    private static final String CS = "DefaultEndpointsProtocol=http;AccountName=dev;AccountKey=" + KEY
            + ";BlobEndpoint=http://127.0.0.1:1/dev;";

    @Test
    void shouldUseDocumentedDefaults() {
        BlobStoreSettings s = BlobStoreSettings.fromConnectionString(CS, "parts");

        assertEquals(5, s.maxAttempts());
        assertEquals(Duration.ofMillis(100), s.initialBackoff());
        assertEquals(Duration.ofSeconds(5), s.maxBackoff());
        assertEquals(Duration.ofSeconds(30), s.requestTimeout());
    }

    @Test
    void shouldHideSecretsInToString() {
        String cs = BlobStoreSettings.fromConnectionString(CS, "parts").toString();
        String sas = BlobStoreSettings.fromSasToken("https://a.blob.core.windows.net", "sv=1&sig=SIGNATURE", "parts").toString();

        assertFalse(cs.contains(KEY), cs);
        assertTrue(cs.contains("dev"), cs);
        assertFalse(sas.contains("SIGNATURE"), sas);
    }

    @Test
    void shouldRequireExactlyOneWayToAuthenticate() {
        assertThrows(IllegalArgumentException.class, () -> new BlobStoreSettings(Optional.of(CS),
                Optional.of("https://x"), Optional.of("sig"), "c", 1, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new BlobStoreSettings(Optional.empty(),
                Optional.of("https://x"), Optional.empty(), "c", 1, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofSeconds(1)));
    }

    @Test
    void shouldRejectZeroAttempts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BlobStoreSettings.fromConnectionString(CS, "parts").withRetries(0, Duration.ofMillis(1), Duration.ofMillis(1)));
        assertTrue(e.getMessage().contains("maxAttempts"), e.getMessage());
        assertFalse(e.getMessage().contains(KEY));
    }
}
