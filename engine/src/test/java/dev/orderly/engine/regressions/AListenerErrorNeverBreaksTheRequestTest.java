package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19, defect 1: a listener that throws an {@code Error} (what any JUnit assertion inside a listener throws)
 * broke the request: from {@code onSegmentDelivered} it failed the request, from {@code onRequestDone} it turned a
 * request that delivered everything into a throw from {@code run}. A listener's throwable is logged, never more.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AListenerErrorNeverBreaksTheRequestTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 2, 2);

    private static RequestResult runWith(RequestListener listener, RecordingClient client) throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        return Orderly.engine(Fixtures.fast()).run(Request.of(PLAN, tier2, store, client).withListener(listener));
    }

    @Test
    void anAssertionErrorFromOnSegmentDeliveredDoesNotFailTheRequest() throws Exception {
        AtomicInteger heard = new AtomicInteger();
        RecordingClient client = new RecordingClient();
        RequestResult result = runWith(new RequestListener() {
            @Override
            public void onSegmentDelivered(long segment) {
                heard.incrementAndGet();
                throw new AssertionError("a JUnit assertion inside the listener failed on segment " + segment);
            }
        }, client);

        assertEquals(Fixtures.range(0, 4), client.segments());
        assertEquals(4, result.segmentsDelivered());
        assertEquals(4, heard.get(), "the listener still hears of every segment after it threw");
    }

    @Test
    void anAssertionErrorFromOnRequestDoneDoesNotTurnADoneRequestIntoAThrow() throws Exception {
        RecordingClient client = new RecordingClient();
        RequestResult result = runWith(new RequestListener() {
            @Override
            public void onRequestDone(RequestResult r) {
                throw new AssertionError("a JUnit assertion inside onRequestDone failed");
            }
        }, client);

        assertEquals(4, result.segmentsDelivered());
        assertEquals(Fixtures.range(0, 4), client.segments());
    }

    @Test
    void anErrorFromEveryEventLeavesTheRequestAsItWouldBe() throws Exception {
        RecordingClient client = new RecordingClient();
        RequestResult result = runWith(new ThrowingEverywhere(), client);

        assertEquals(4, result.segmentsDelivered());
        assertEquals(Fixtures.range(0, 4), client.segments());
    }

    /** Throws an {@code Error} from every event. */
    private static final class ThrowingEverywhere implements RequestListener {
        @Override
        public void onQueued(dev.orderly.api.JobKey key) {
            throw new AssertionError("onQueued");
        }

        @Override
        public void onDial(dev.orderly.api.Job job) {
            throw new AssertionError("onDial");
        }

        @Override
        public void onAdmitted(dev.orderly.api.Job job) {
            throw new LinkageError("onAdmitted");
        }

        @Override
        public void onJobDone(dev.orderly.api.Job job) {
            throw new AssertionError("onJobDone");
        }

        @Override
        public void onSegmentDelivered(long segment) {
            throw new AssertionError("onSegmentDelivered");
        }

        @Override
        public void onRequestDone(RequestResult result) {
            throw new AssertionError("onRequestDone");
        }
    }
}
