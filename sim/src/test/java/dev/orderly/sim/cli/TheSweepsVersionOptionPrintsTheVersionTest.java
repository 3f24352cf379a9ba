package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code orderly sweep --help} lists {@code -V, --version  Print version information and exit.}, but
 * {@code orderly sweep --version} printed nothing and exited 0: the sweep's command named no version provider (the
 * main command, fleet and fleet bench do), and picocli's standard --version then prints nothing. It now prints the
 * project's version, as {@code orderly --version} does.
 */
@Timeout(30)
class TheSweepsVersionOptionPrintsTheVersionTest {

    @ParameterizedTest(name = "sweep {0}")
    @ValueSource(strings = {"--version", "-V"})
    void theSweepPrintsTheProjectsVersion(String option) {
        String expected = System.getProperty("orderly.expectedVersion");
        assertNotNull(expected, "surefire passes the pom's version as orderly.expectedVersion");
        CliRun o = CliRun.of("sweep", option);
        assertEquals(0, o.code(), o.err());
        assertEquals("orderly " + expected, o.out().strip());
        assertTrue(CliRun.of("sweep", "--help").out().contains("--version"), "the help offers it");
    }
}
