package io.mvsink.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.TokenCredential;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

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
                Optional.of("https://x"), Optional.of("sig"), Optional.empty(), "c", 1, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new BlobStoreSettings(Optional.empty(),
                Optional.of("https://x"), Optional.empty(), Optional.empty(), "c", 1, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofSeconds(1)));
    }

    @Test
    void shouldTakeATokenCredentialInsteadOfASasTokenButNotBoth() {
        TokenCredential credential = request -> Mono.empty();
        BlobStoreSettings s = BlobStoreSettings.fromTokenCredential("https://a.blob.core.windows.net", credential, "parts");
        assertEquals(Optional.of(credential), s.credential());
        assertEquals(Optional.empty(), s.sasToken());
        assertEquals(s, s.withRetries(2, Duration.ofMillis(1), Duration.ofMillis(1)).withRetries(5,
                BlobStoreSettings.DEFAULT_INITIAL_BACKOFF, BlobStoreSettings.DEFAULT_MAX_BACKOFF), "copies keep it");
        assertThrows(IllegalArgumentException.class, () -> new BlobStoreSettings(Optional.empty(),
                Optional.of("https://x"), Optional.of("sig"), Optional.of(credential), "c", 1, Duration.ofMillis(1),
                Duration.ofMillis(1), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new BlobStoreSettings(Optional.of(CS),
                Optional.empty(), Optional.empty(), Optional.of(credential), "c", 1, Duration.ofMillis(1),
                Duration.ofMillis(1), Duration.ofSeconds(1)));
    }

    @Test
    void shouldRejectZeroAttempts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BlobStoreSettings.fromConnectionString(CS, "parts").withRetries(0, Duration.ofMillis(1), Duration.ofMillis(1)));
        assertTrue(e.getMessage().contains("maxAttempts"), e.getMessage());
        assertFalse(e.getMessage().contains(KEY));
    }
}
