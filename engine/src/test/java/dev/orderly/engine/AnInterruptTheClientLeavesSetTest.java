package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.SegmentConsumer;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@code SegmentConsumer}'s javadoc says of an interrupt {@code accept} restores and returns: it is not a failure
 * of that call; the request fails at its next wait for a segment, naming that segment, and after the last segment,
 * where there is no such wait, the request is done.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnInterruptTheClientLeavesSetTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 3, 2, 2);

    @Test
    void leftBeforeTheLastSegmentItFailsTheRequestNamingTheNextSegment() {
        List<Long> received = new CopyOnWriteArrayList<>();

        RequestFailedException failure = assertThrows(RequestFailedException.class,
                () -> run(interruptingOn(1, received)));

        assertEquals(List.of(0L, 1L), received);
        assertEquals(new JobKey(2, 1), failure.key().orElseThrow());
        assertTrue(failure.getMessage().contains("left the interrupt set"), failure.getMessage());
    }

    @Test
    void leftOnTheLastSegmentTheRequestIsDone() throws Exception {
        List<Long> received = new CopyOnWriteArrayList<>();

        RequestResult result = run(interruptingOn(2, received));

        assertEquals(List.of(0L, 1L, 2L), received);
        assertEquals(3, result.segmentsDelivered());
    }

    private static RequestResult run(SegmentConsumer client) throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        return Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, store, client));
    }

    /** A client that, on {@code segment}, restores an interrupt it could not handle and returns (the idiom). */
    private static SegmentConsumer interruptingOn(long segment, List<Long> received) {
        return (s, output) -> {
            received.add(s);
            if (s == segment) {
                Thread.currentThread().interrupt();
            }
        };
    }
}
