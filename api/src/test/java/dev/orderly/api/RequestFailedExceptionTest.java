package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link RequestFailedException}: the failed unit, the message and the last error. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestFailedExceptionTest {

    @Test
    void aUnitFailureKeepsTheKeyTheMessageAndTheLastError() {
        JobKey key = new JobKey(12, 2);
        Tier2Exception last = Tier2Exception.retryable("stream reset", null);
        RequestFailedException e = new RequestFailedException(key,
                key + " failed 5 times, giving up: " + last.getMessage(), last);
        assertEquals(Optional.of(key), e.key());
        assertEquals("segment 12 stage 2 failed 5 times, giving up: stream reset", e.getMessage());
        assertSame(last, e.getCause());
    }

    @Test
    void aRequestFailureNoUnitCausedHasNoKey() {
        IllegalStateException consumerError = new IllegalStateException("client closed");
        RequestFailedException e = new RequestFailedException("the client failed on segment 3", consumerError);
        assertTrue(e.key().isEmpty());
        assertSame(consumerError, e.getCause());
    }

    @Test
    void theCauseMayBeAbsent() {
        assertNull(new RequestFailedException(new JobKey(0, 0), "segment 0 stage 0 output missing", null).getCause());
        assertNull(new RequestFailedException("cancelled", null).getCause());
    }

    @Test
    void aNullKeyOrMessageIsRejectedNamingTheField() {
        NullPointerException noKey = assertThrows(NullPointerException.class,
                () -> new RequestFailedException((JobKey) null, "m", null));
        assertEquals("key", noKey.getMessage());
        NullPointerException noMessage = assertThrows(NullPointerException.class,
                () -> new RequestFailedException(new JobKey(0, 0), null, null));
        assertEquals("message", noMessage.getMessage());
        NullPointerException noMessageNoKey = assertThrows(NullPointerException.class,
                () -> new RequestFailedException(null, (Throwable) null));
        assertEquals("message", noMessageNoKey.getMessage());
    }

    @Test
    void withPartialResultKeepsMessageCauseUnitAndStackTrace() {
        IllegalStateException last = new IllegalStateException("stream reset");
        RequestFailedException e = new RequestFailedException(new JobKey(3, 1), "segment 3 stage 1 failed", last);
        java.time.Duration d = java.time.Duration.ofMillis(5);
        RequestResult partial = new RequestResult(3, 4, 5, 1, 1, 0, 0, d, d);

        RequestFailedException copy = e.withPartialResult(partial);

        assertTrue(e.partialResult().isEmpty());
        assertEquals(java.util.Optional.of(partial), copy.partialResult());
        assertEquals(e.getMessage(), copy.getMessage());
        assertSame(last, copy.getCause());
        assertEquals(e.key(), copy.key());
        assertEquals(java.util.List.of(e.getStackTrace()), java.util.List.of(copy.getStackTrace()));
        assertEquals(java.util.Optional.of(partial), RequestFailedException.partialResultOf(copy));
        InterruptedException interrupted = new InterruptedException("cancelled");
        assertTrue(RequestFailedException.partialResultOf(interrupted).isEmpty());
        interrupted.addSuppressed(copy);
        assertEquals(java.util.Optional.of(partial), RequestFailedException.partialResultOf(interrupted));
    }
}
