package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code launchWindowMin} is the one window setting with no environment variable. Someone who writes one by symmetry
 * with {@code SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX} was told "did you mean SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX?": the
 * closest name, but another setting, so following the advice set the window's largest size to the value meant for its
 * smallest. The warning now says that the setting has no variable and where it is set.
 */
class AWindowMinVariableIsNotTakenForTheMaxTest {

    @Test
    void theWindowMinVariableIsNotSentToTheMax() {
        List<String> warnings = EngineConfig.environmentWarnings(
                Map.of("SUBSTREAMS_WORKER_LAUNCH_WINDOW_MIN", "4"));
        assertEquals(1, warnings.size(), warnings.toString());
        assertFalse(warnings.get(0).contains("did you mean SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX"), warnings.get(0));
        assertEquals("SUBSTREAMS_WORKER_LAUNCH_WINDOW_MIN is not a variable Orderly reads; launchWindowMin has no"
                + " environment variable: set it with EngineConfig.builder().launchWindowMin(n)", warnings.get(0));
    }

    @Test
    void aTypoOfTheMaxIsStillTakenForTheMax() {
        assertEquals(List.of("SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAXX is not a variable Orderly reads; did you mean"
                + " SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAX?"),
                EngineConfig.environmentWarnings(Map.of("SUBSTREAMS_WORKER_LAUNCH_WINDOW_MAXX", "4")));
    }
}
