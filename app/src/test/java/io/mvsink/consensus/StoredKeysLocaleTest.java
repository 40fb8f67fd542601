package io.mvsink.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.batch.BlobKeys;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stored strings (consensus keys, blob keys) are the same whatever the JVM's default locale: a
 * locale with other digits (Arabic-Indic here) must not change a key that another JVM reads.
 */
class StoredKeysLocaleTest {
    private Locale saved;

    @BeforeEach
    void useALocaleWithOtherDigits() {
        saved = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("ar-EG-u-nu-arab"));
    }

    @AfterEach
    void restore() {
        Locale.setDefault(saved);
    }

    @Test
    void shouldFormatConsensusKeysWithAsciiDigitsInAnyLocale() {
        assertEquals("orders/0000000000000000042", ConsensusKeys.diff("orders", 42));
        assertEquals(42, ConsensusKeys.seqnoOf(ConsensusKeys.diff("orders", 42)));
    }

    @Test
    void shouldFormatBlobKeysWithAsciiDigitsInAnyLocale() {
        assertEquals("s/0000000000000001000-0000000000000002000/b-0003.avro", BlobKeys.part("s/", 1000, 2000, "b", 3));
    }
}
