package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.bench.CatchUpWorkload;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCommandTest {

    private static BenchCommand parse(String... args) {
        BenchCommand command = new BenchCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void shouldRunTheNarrowWorkloadByDefault() {
        assertEquals(List.of(CatchUpWorkload.NARROW), parse("--scenario", "catch-up").catchUpOptions().workloads());
    }

    @Test
    void shouldTakeWideOrBothWorkloads() {
        assertEquals(List.of(CatchUpWorkload.WIDE),
            parse("--scenario", "catch-up", "--workload", "wide").catchUpOptions().workloads());
        assertEquals(List.of(CatchUpWorkload.NARROW, CatchUpWorkload.WIDE),
            parse("--scenario", "catch-up", "--workload", "both", "--updates", "50000", "--modes", "barrier",
                "--wide-interval-ms", "0").catchUpOptions().workloads());
    }

    @Test
    void shouldRefuseAnUnknownWorkloadNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> parse("--scenario", "catch-up", "--workload", "wider").catchUpOptions());
        assertTrue(e.getMessage().startsWith("--workload: unknown workload 'wider'"), e.getMessage());
    }

    @Test
    void shouldDescribeTheWorkloadsInItsHelp() {
        String help = new CommandLine(new BenchCommand()).getUsageMessage();
        assertTrue(help.contains("--workload=narrow|wide|both"), help);
        assertTrue(help.contains("0.5% late updates"), help);
    }
}
