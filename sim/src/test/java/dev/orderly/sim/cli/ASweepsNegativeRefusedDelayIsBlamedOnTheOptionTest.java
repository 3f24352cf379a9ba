package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code orderly sweep --refused-delay=-1s} said {@code orderly: environment: refusedDelay must be >= 0, was PT-1S}:
 * the sweep built the engine's configuration with the option before it checked the option, so the configuration's
 * own check spoke first, blamed the environment and wrote the value in Java's ISO form. The option is now checked
 * first and named with its value as written.
 */
@Timeout(30)
class ASweepsNegativeRefusedDelayIsBlamedOnTheOptionTest {

    @ParameterizedTest(name = "sweep --refused-delay={0}")
    @ValueSource(strings = {"-1s", "-250ms", "0"})
    void theOptionAndItsValueAsWrittenAreNamed(String value) {
        CliRun o = CliRun.of("sweep", "--refused-delay=" + value);
        String line = o.line();
        assertEquals(2, o.code(), o.out() + line);
        assertEquals("", o.out(), "nothing ran");
        assertEquals("orderly: --refused-delay must be > 0, was '" + value + "' (see orderly sweep --help)", line);
        assertFalse(line.contains("environment") || line.contains("PT"), line);
        assertTrue(line.lines().count() == 1, line);
    }
}
