package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The documented limits of the configuration are inclusive: a value equal to a bound is accepted, as the error
 * message ("must be <= ...") promises.
 *
 * <p>In {@code EngineEnvironment.parseInt}, "is too large" is chosen by {@code whole.signum() == 1} rather than
 * {@code > 0}: the two differ from {@code >= 0} only for a whole number equal to zero, and every spelling of zero that
 * {@link java.math.BigInteger} accepts ({@code 0}, {@code -0}, {@code +0}, {@code 000}, zeros in other scripts) is
 * accepted by {@link Integer#parseInt} first (both read digits with {@link Character#digit}), so that branch never
 * sees a zero and a boundary mutant of {@code > 0} could not be killed. "is too large/small" itself is checked in
 * {@code EngineConfigEnvironmentTest}.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ConfigurationLimitsAreInclusiveTest {

    @Test
    void theLargestLookaheadFactorIsAccepted() {
        EngineConfig config = EngineConfig.builder().lookaheadFactor(EngineConfig.MAX_LOOKAHEAD_FACTOR).build();
        assertEquals(EngineConfig.MAX_LOOKAHEAD_FACTOR, config.lookaheadFactor());
        IllegalArgumentException above = assertThrows(IllegalArgumentException.class,
                () -> EngineConfig.builder().lookaheadFactor(Math.nextUp(EngineConfig.MAX_LOOKAHEAD_FACTOR)).build());
        assertEquals("lookaheadFactor must be <= 1000 (segments of look-ahead per worker), was 1000.0000000000001",
                above.getMessage());
    }

    @Test
    void theLargestLookaheadFactorIsAcceptedFromTheEnvironment() {
        EngineConfig config = EngineConfig.fromEnvironment(Map.of(EngineConfig.ENV_LOOKAHEAD_FACTOR, "1000"));
        assertEquals(1000.0, config.lookaheadFactor());
    }
}
