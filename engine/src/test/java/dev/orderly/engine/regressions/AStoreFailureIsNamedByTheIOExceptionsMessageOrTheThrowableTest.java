package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

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
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A store's failure is named, after "giving up: ", by what says what failed (OutputWalker.callStore): an
 * {@code IOException}'s own message (FileOutputStore's and S3OutputStore's name the path or the key), without
 * "java.io.IOException: " before it; an {@code IOException} with no message by its class; any other throwable as
 * itself ({@code toString}: its class, then its message). Kills the two surviving negations of the condition
 * {@code failure instanceof IOException && failure.getMessage() != null} (round 62).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AStoreFailureIsNamedByTheIOExceptionsMessageOrTheThrowableTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 2, 1, 1);

    @Test
    void anIOExceptionIsNamedByItsMessageAlone() {
        IOException cause = new IOException("s3://bucket/outputs/0: 503 Slow Down");
        RequestFailedException e = failureWithAStoreThatThrows(cause);
        assertEquals("segment 0 stage 0 output could not be read, giving up: s3://bucket/outputs/0: 503 Slow Down",
                e.getMessage());
        assertSame(cause, e.getCause());
    }

    @Test
    void anIOExceptionWithNoMessageIsNamedByItsClass() {
        IOException cause = new IOException();
        RequestFailedException e = failureWithAStoreThatThrows(cause);
        assertEquals("segment 0 stage 0 output could not be read, giving up: java.io.IOException", e.getMessage());
        assertSame(cause, e.getCause());
    }

    @Test
    void anyOtherThrowableIsNamedWithItsClass() {
        IllegalStateException cause = new IllegalStateException("store closed");
        RequestFailedException e = failureWithAStoreThatThrows(cause);
        assertEquals("segment 0 stage 0 output could not be read, giving up: java.lang.IllegalStateException: store"
                + " closed", e.getMessage());
        assertSame(cause, e.getCause());
    }

    private static RequestFailedException failureWithAStoreThatThrows(Exception failure) {
        InMemoryOutputStore written = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, written::write, job -> Script.succeed());
        OutputStore store = segment -> {
            if (failure instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) failure;
        };
        Throwable t = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(PLAN, tier2, store, (segment, output) -> { }).withId("r-store-named")).failure(10);
        return assertInstanceOf(RequestFailedException.class, t);
    }
}
