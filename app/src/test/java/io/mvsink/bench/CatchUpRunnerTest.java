package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CatchUpRunnerTest {

    @Test
    void shouldGiveEachWorkloadsPlainConsumerAResultFileOfItsOwn() {
        // one work directory serves both workloads: the wide one's consumer must not find the narrow one's file
        Path work = Path.of("/tmp/mvsink-catchup1");
        assertNotEquals(CatchUpRunner.consumerResult(work, "460635"), CatchUpRunner.consumerResult(work, "460635-wide"));
    }
}
