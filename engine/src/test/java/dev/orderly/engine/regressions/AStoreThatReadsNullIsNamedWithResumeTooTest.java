package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.Orderly;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: an {@code OutputStore} whose {@code read} returns null (against its contract) fails the request with
 * "the OutputStore broke its contract, read(S) returned null instead of an Optional". With resume, the same store failed
 * it first in the look-up, through {@code OutputStore.contains}'s default, with the JVM's bare "NullPointerException:
 * Cannot invoke "java.util.Optional.isPresent()" because the return value of ... is null", which names no contract.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AStoreThatReadsNullIsNamedWithResumeTooTest {

    @Test
    void aReadThatReturnsNullIsNamedAsABrokenContractInTheLookUp() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 1);
        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(plan, job -> {
                    throw new AssertionError("nothing should be dialed before the look-up");
                }, segment -> null, (segment, output) -> { }).withId("r-null").withResume(true)));

        assertEquals(Optional.of(new JobKey(0, 0)), e.key(), e.getMessage());
        assertTrue(e.getMessage().contains("broke its contract, read(0) returned null instead of an Optional"),
                e.getMessage());
        assertFalse(e.getMessage().contains("NullPointerException"), e.getMessage());
    }
}
