package io.mvsink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.topology.DeadLetterReason;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReadmeOptionsTest {

    @Test
    void shouldShowEveryOptionAsDeclared() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf(OptionsReference.START);
        int end = readme.indexOf(OptionsReference.END);
        assertTrue(start >= 0 && end > start, "README.md has the generated option reference between its markers");
        String shown = readme.substring(start, end + OptionsReference.END.length() + 1);
        assertEquals(OptionsReference.markdown(), shown,
            "README.md's option reference is stale: replace it with `java -jar app/target/mvsink.jar options`");
    }

    @Test
    void shouldExplainEveryDeadLetterReason() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        for (String reason : DeadLetterReason.ALL) {
            assertTrue(readme.contains("| `" + reason + "` |"), "README.md's reason table explains " + reason);
        }
    }

    @Test
    void shouldDocumentEveryOption() {
        for (var key : MvsinkConfig.DEFINITION.configKeys().values()) {
            assertTrue(key.documentation != null && key.documentation.length() > 10, key.name + " is documented");
            assertTrue(OptionsReference.markdown().contains("`" + key.name + "`"), key.name);
        }
    }
}
