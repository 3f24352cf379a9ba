package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.testing.LocalTier2;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's retryable failure reaches its client as RETRYABLE whatever its message: one longer than the client's
 * largest message made the {@code Failed} message itself too large, which the client took for work over
 * maxMessageSize (FATAL, failing the request); one with no message read "failed on the tier2: null".
 */
@Timeout(60)
class AFailedJobsReasonReachesItsClientAsARetryableFailureTest {

    private static Job job() {
        return new Job("r", new JobKey(0, 0), 1);
    }

    private static String head(Exception e) {
        String m = String.valueOf(e.getMessage());
        return m.length() <= 300 ? m : m.substring(0, 300) + "...";
    }

    @Test
    void aFailureWithAMessageLongerThanTheClientsLimitIsStillRetryable() throws Exception {
        String longMessage = "upstream said: " + "x".repeat(5 * 1024 * 1024); // over the default 4 MiB
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().worker((job, work) -> {
            throw new IOException(longMessage);
        }))) {
            Tier2Exception e;
            try (Tier2Call call = tier2.client().dial(job())) {
                e = assertThrows(Tier2Exception.class, call::await);
            }
            assertEquals(Tier2Exception.Kind.RETRYABLE, e.kind(), head(e));
            assertTrue(e.getMessage().contains("upstream said: xxx"), head(e));
        }
    }

    @Test
    void aFailureWithNoMessageSaysWhatFailedNotNull() throws Exception {
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().worker((job, work) -> {
            throw new IllegalStateException();
        }))) {
            Tier2Exception e;
            try (Tier2Call call = tier2.client().dial(job())) {
                e = assertThrows(Tier2Exception.class, call::await);
            }
            assertEquals(Tier2Exception.Kind.RETRYABLE, e.kind());
            assertFalse(e.getMessage().endsWith(": null"), e.getMessage());
            assertTrue(e.getMessage().contains("IllegalStateException"), e.getMessage());
        }
    }
}
