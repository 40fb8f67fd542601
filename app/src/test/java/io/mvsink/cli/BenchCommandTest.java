package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.bench.CatchUpWorkload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
    void shouldRunCatchUpUnderTheJvmsOwnHeapUnlessOneIsGiven() {
        assertEquals("default", parse("--scenario", "catch-up").catchUpOptions().heap());
        assertEquals("512m", parse("--scenario", "catch-up", "--heap", "512m", "--updates", "5000000").catchUpOptions().heap());
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
    void shouldTakeTheMaxRateStepsAndRefuseAFactorThatCannotRiseNamingTheOption() {
        assertEquals(List.of(1000.0, 3000.0, 9000.0),
            parse("--scenario", "max-rate", "--rate-steps", "1000,3,10000", "--step-s", "20").rateSteps().rates());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> parse("--scenario", "max-rate", "--rate-steps", "4000,1,32000").rateSteps());
        assertTrue(e.getMessage().startsWith("--rate-steps: the factor must be above 1"), e.getMessage());
        assertEquals(List.of(4000.0, 8000.0, 16000.0, 32000.0), parse("--scenario", "max-rate").rateSteps().rates());
        e = assertThrows(IllegalArgumentException.class,
            () -> parse("--scenario", "max-rate", "--rate-steps", "4000,2").rateSteps());
        assertTrue(e.getMessage().startsWith("--rate-steps: three numbers"), e.getMessage());
    }

    @Test
    void shouldRefuseAnUnknownWorkloadNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> parse("--scenario", "catch-up", "--workload", "wider").catchUpOptions());
        assertTrue(e.getMessage().startsWith("--workload: unknown workload 'wider'"), e.getMessage());
    }

    @Test
    void shouldDescribeTheWorkloadsInItsHelpWithoutAFormatWarning() {
        PrintStream err = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        String help;
        try {
            System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
            help = new CommandLine(new BenchCommand()).getUsageMessage();
        } finally {
            System.setErr(err);
        }
        assertEquals("", warnings.toString(StandardCharsets.UTF_8));
        assertTrue(help.contains("--workload=narrow|wide|both"), help);
        assertTrue(help.replaceAll("\\s+", " ").contains("30% retractions of -1, -2 or a row's whole count, 0.5% late"),
            help);
    }
}
