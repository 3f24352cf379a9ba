package dev.orderly.sim.tier2;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a tier2 process of {@code orderly fleet} that did not listen in time was reported as {@code orderly:
 * tier2 0 did not say it listens within PT1M (see …)}: Java's ISO-8601 form of a duration, where every other line of
 * the command says {@code 60s}. It now says the duration as the command's options are written.
 */
@Timeout(60)
class ATier2ThatDoesNotListenInTimeIsSaidInWordsTest {

    @TempDir
    Path dir;

    @Test
    void theStartTimeoutIsWrittenAsTheOptionsAre() {
        // No JVM says it listens within 1 ms: the start times out for sure, and the child is stopped.
        IOException e = assertThrows(IOException.class, () -> Tier2Processes.start(1,
                List.of("--outputs=" + dir), dir, Duration.ofMillis(1)));
        assertTrue(e.getMessage().contains("did not say it listens within 1ms"), e.getMessage());
        assertFalse(e.getMessage().contains("PT"), e.getMessage());
        assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive), "a child outlived start");
    }
}
