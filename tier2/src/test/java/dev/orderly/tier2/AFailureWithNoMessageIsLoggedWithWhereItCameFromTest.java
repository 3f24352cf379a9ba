package dev.orderly.tier2;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.Tier2Server;
import dev.orderly.grpc.testing.LocalTier2;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that throws an exception with no message (a bare {@code Objects.requireNonNull}, a
 * {@code new IllegalStateException()}) fails its job with the reason "IllegalStateException (no message; the tier2's
 * log has the rest)". The tier2's log had only "job (0,0) failed: java.lang.IllegalStateException", the same class
 * name and nothing more: no stack trace, so nothing said where in the worker it was thrown. The WARN line of a failure
 * that is not a {@code Tier2Exception} (a worker's bug, not a failure it reported) now carries the stack trace.
 */
@Timeout(60)
class AFailureWithNoMessageIsLoggedWithWhereItCameFromTest {

    /** Where the worker's bug is: the log must lead here. */
    private static void readTheSettings(Object settings) {
        Objects.requireNonNull(settings);
    }

    @Test
    void theTier2sLogHasWhereTheWorkerThrew() throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder()
                .worker((job, work) -> readTheSettings(null)))) {
            Tier2Exception e;
            try (Tier2Call call = tier2.client().dial(new Job("r", new JobKey(0, 0), 1))) {
                e = assertThrows(Tier2Exception.class, call::await);
            }
            assertEquals(Tier2Exception.Kind.RETRYABLE, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("the tier2's log has the rest"), e.getMessage());
            await().atMost(Duration.ofSeconds(10)).until(() -> captured.toString(StandardCharsets.UTF_8)
                    .contains("java.lang.NullPointerException"));
        } finally {
            System.setErr(original);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("readTheSettings"), "the tier2's log does not say where the worker threw: " + log);
    }
}
