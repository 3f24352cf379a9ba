package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a store written in a language without checked exceptions (Kotlin, Groovy, Lombok's
 * {@code @SneakyThrows}) can throw a checked exception other than {@code IOException} from {@code read}. The engine
 * caught only {@code IOException}, {@code RuntimeException} and {@code Error}: anything else skipped the deadline's
 * alarm and the naming of the segment, and the request failed with "request r-7 failed: java.lang.InterruptedException"
 * and no unit. Whatever a store throws now fails the request naming the segment, or at its deadline when the
 * deadline's interrupt was the cause.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACheckedExceptionFromTheStoreNamesItsSegmentTest {

    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** Kotlin's Thread.sleep in a store, interrupted by the deadline's alarm: InterruptedException, unchecked there. */
    @Test
    void aStoreReadInterruptedAtTheDeadlineFailsTheRequestAtItsDeadline() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore written = new InMemoryOutputStore();
        OutputStore store = segment -> {
            if (segment == 1) {
                try {
                    Thread.sleep(5_000);
                } catch (InterruptedException e) {
                    throw sneaky(e);
                }
            }
            return written.read(segment);
        };
        ScriptedTier2 tier2 = new ScriptedTier2(plan, written::write, job -> Script.succeed());
        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (s, b) -> { }).withId("r-7").withDeadline(Duration.ofMillis(300)))
                .failure(10);
        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertTrue(e.getMessage().startsWith("request r-7 passed its deadline of 300ms: 1 of 3 segments delivered"),
                e.getMessage());
    }

    /** Any other checked exception from the store: the request fails naming the segment's last stage. */
    @Test
    void aCheckedExceptionFromTheStoreNamesTheSegment() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore written = new InMemoryOutputStore();
        OutputStore store = segment -> {
            if (segment == 1) {
                throw sneaky(new java.util.concurrent.TimeoutException("bucket slow"));
            }
            return written.read(segment);
        };
        ScriptedTier2 tier2 = new ScriptedTier2(plan, written::write, job -> Script.succeed());
        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (s, b) -> { }).withId("r-7")).failure(10);
        RequestFailedException e = assertInstanceOf(RequestFailedException.class, t);
        assertEquals(Optional.of(new JobKey(1, 0)), e.key(), e.getMessage());
        assertInstanceOf(java.util.concurrent.TimeoutException.class, e.getCause());
    }
}
