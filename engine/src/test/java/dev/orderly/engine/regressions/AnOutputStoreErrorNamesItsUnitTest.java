package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.ThreadCensus;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19, defect 2: an {@code Error} from the {@code OutputStore} lost its unit ({@code key()} empty, "request …
 * failed: java.lang.AssertionError"). An {@code Error} from the store or the client fails the request naming the
 * segment's last stage, like an exception there.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnOutputStoreErrorNamesItsUnitTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 3, 2, 2);

    @Test
    void anAssertionErrorFromReadNamesTheSegmentsLastStage() {
        InMemoryOutputStore written = new InMemoryOutputStore();
        OutputStore store = segment -> {
            if (segment == 1) {
                throw new AssertionError("store broke on segment 1");
            }
            return written.read(segment);
        };
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, written::write, job -> Script.succeed());

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(PLAN, tier2, store, new RecordingClient())));

        assertEquals(Optional.of(new JobKey(1, 1)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 1 stage 1 output could not be read, giving up"), e.getMessage());
        assertInstanceOf(AssertionError.class, e.getCause());
        assertEquals(1, e.partialResult().orElseThrow().segmentsDelivered());
    }

    @Test
    void anAssertionErrorFromTheClientNamesTheSegmentsLastStage() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(PLAN, tier2, store, (segment, output) -> {
                    if (segment == 2) {
                        throw new AssertionError("client broke on segment 2");
                    }
                })));

        assertEquals(Optional.of(new JobKey(2, 1)), e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith("segment 2 stage 1"), e.getMessage());
        assertTrue(e.getMessage().contains("the client failed"), e.getMessage());
        assertInstanceOf(AssertionError.class, e.getCause());
    }

    @Test
    void anExceptionFromTheClientNamesTheSegmentsLastStageToo() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(PLAN, tier2, store, (segment, output) -> {
                    if (segment == 0) {
                        throw new IllegalStateException("client bug");
                    }
                })));

        assertEquals(Optional.of(new JobKey(0, 1)), e.key(), e.getMessage());
        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    /** Only a VirtualMachineError propagates as itself, once every thread of the request has ended. */
    @Test
    void aVirtualMachineErrorPropagatesAsItselfAfterEverythingIsCancelled() {
        RequestPlan plan = new RequestPlan(0, 6, 2, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        StackOverflowError overflow = new StackOverflowError("deep module");
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> {
            if (job.key().equals(new JobKey(2, 1))) {
                throw overflow;
            }
            return job.key().segment() == 3 ? Script.block() : Script.succeed();
        });
        ThreadCensus census = new ThreadCensus();

        StackOverflowError thrown = assertThrows(StackOverflowError.class, () -> census.engine(Fixtures.fast())
                .run(Request.of(plan, tier2, store, new RecordingClient())));

        org.junit.jupiter.api.Assertions.assertSame(overflow, thrown);
        assertEquals(0, census.alive(), "request threads alive after run threw");
        assertEquals(0, tier2.openCalls(), "calls left open");
    }
}
