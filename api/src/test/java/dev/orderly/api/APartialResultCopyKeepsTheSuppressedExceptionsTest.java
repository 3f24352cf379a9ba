package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RequestFailedException#withPartialResult} is the same failure with the figures added: whatever was suppressed
 * on the original (a close that failed too, say) is still on the copy, in the same order, not lost on the way.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class APartialResultCopyKeepsTheSuppressedExceptionsTest {

    @Test
    void theCopyCarriesEverySuppressedExceptionOfTheOriginal() {
        RequestFailedException original = new RequestFailedException("the client failed on segment 3", null);
        IllegalStateException first = new IllegalStateException("close failed");
        IllegalArgumentException second = new IllegalArgumentException("flush failed");
        original.addSuppressed(first);
        original.addSuppressed(second);
        Duration d = Duration.ofMillis(5);

        RequestFailedException copy = original.withPartialResult(new RequestResult(3, 4, 5, 1, 1, 0, 0, d, d));

        assertEquals(2, copy.getSuppressed().length, List.of(copy.getSuppressed()).toString());
        assertSame(first, copy.getSuppressed()[0]);
        assertSame(second, copy.getSuppressed()[1]);
    }
}
