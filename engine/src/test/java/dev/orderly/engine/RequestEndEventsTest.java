package dev.orderly.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The events that close a request ({@code onRequestDone}, {@code onRequestFailed}, {@code onRequestCancelled}) and
 * {@code onAbandoned}: exactly one end event per request, last of all its events, carrying what {@code run} returns
 * or throws.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class RequestEndEventsTest {

    /** Every event as one line, in the order the listener saw them. */
    private static final class Story implements RequestListener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Object> endArguments = new CopyOnWriteArrayList<>();

        @Override
        public void onDial(Job job) {
            events.add("dial " + job.key());
        }

        @Override
        public void onAdmitted(Job job) {
            events.add("admitted " + job.key());
        }

        @Override
        public void onSegmentDelivered(long segment) {
            events.add("delivered " + segment);
        }

        @Override
        public void onAbandoned(JobKey key) {
            events.add("abandoned " + key);
        }

        @Override
        public void onRequestDone(RequestResult result) {
            events.add("done");
            endArguments.add(result);
        }

        @Override
        public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
            events.add("failed");
            endArguments.add(soFar);
            endArguments.add(failure);
        }

        @Override
        public void onRequestCancelled(RequestResult soFar) {
            events.add("cancelled");
            endArguments.add(soFar);
        }

        long ends() {
            return events.stream().filter(e -> e.equals("done") || e.equals("failed") || e.equals("cancelled"))
                    .count();
        }

        String last() {
            return events.getLast();
        }
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aRequestThatDeliversEverySegmentEndsWithDoneCarryingTheResultRunReturns(boolean ordered) throws Exception {
        RequestPlan plan = new RequestPlan(0, 8, 2, 3);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());
        Story story = new Story();

        RequestResult result = Orderly.engine(ordered ? Fixtures.fast() : Fixtures.fastUnordered())
                .run(Request.of(plan, tier2, store, new RecordingClient()).withListener(story));

        assertEquals(1, story.ends(), story.events.toString());
        assertEquals("done", story.last());
        assertEquals(List.of(result), story.endArguments);
    }

    @Test
    void aRequestThatFailsEndsWithFailedCarryingTheExceptionRunThrowsAndTheFiguresSoFar() {
        RequestPlan plan = new RequestPlan(0, 4, 1, 1);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> job.key().segment() == 2
                ? Script.throwOnDial(Tier2Exception.fatal("bad request", null))
                : Script.succeed());
        Story story = new Story();
        RecordingClient recorder = new RecordingClient();

        Throwable thrown = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, recorder).withListener(story)).failure(10);

        assertInstanceOf(RequestFailedException.class, thrown);
        assertEquals(1, story.ends(), story.events.toString());
        assertEquals("failed", story.last());
        RequestResult soFar = (RequestResult) story.endArguments.get(0);
        assertEquals(recorder.segments().size(), soFar.segmentsDelivered());
        // every dial the fleet saw (3, or 4 when the owner forks segment 3's job before it learns of the failure)
        assertEquals(tier2.log().dials().size(), soFar.dials());
        assertSame(thrown, story.endArguments.get(1));
    }

    @Test
    void anInterruptedRequestEndsWithCancelled() throws Exception {
        RequestPlan plan = new RequestPlan(0, 4, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.block());
        Story story = new Story();
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, new RecordingClient()).withListener(story));
        await().atMost(Duration.ofSeconds(10)).until(() -> tier2.blocked() == 2);

        run.interrupt();

        assertInstanceOf(InterruptedException.class, run.failure(10));
        assertEquals(1, story.ends(), story.events.toString());
        assertEquals("cancelled", story.last());
        RequestResult soFar = (RequestResult) story.endArguments.get(0);
        assertEquals(0, soFar.segmentsDelivered());
        assertEquals(2, soFar.admissions());
    }

    @Test
    void aJobWhoseUnitStopsBeingNeededReportsAbandoned() throws Exception {
        LateFailingShadowedJob scenario = new LateFailingShadowedJob(new RequestPlan(0, 3, 2, 2),
                Tier2Exception.retryable("late failure", null));
        Story story = new Story();

        RequestResult result = Orderly.engine(Fixtures.fast()).run(scenario.request().withListener(story));

        assertEquals(3, result.segmentsDelivered());
        assertTrue(story.events.contains("abandoned " + LateFailingShadowedJob.SHADOWED), story.events.toString());
        assertEquals(1, story.events.stream().filter(e -> e.startsWith("abandoned")).count(), story.events.toString());
        assertEquals("done", story.last());
    }

    @Test
    void aListenerThatThrowsFromTheEndEventDoesNotChangeWhatRunReturns() throws Exception {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.succeed());

        RequestResult result = Orderly.engine(Fixtures.fast()).run(Request.of(plan, tier2, store,
                new RecordingClient()).withListener(new RequestListener() {
                    @Override
                    public void onRequestDone(RequestResult r) {
                        throw new IllegalStateException("listener bug");
                    }
                }));

        assertEquals(3, result.segmentsDelivered());
    }
}
