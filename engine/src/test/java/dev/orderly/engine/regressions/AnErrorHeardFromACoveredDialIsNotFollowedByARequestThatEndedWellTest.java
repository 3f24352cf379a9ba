package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.SegmentConsumer;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The race 167ee25 left open: a unit covered while it dialed, whose dial throws an {@code Error} before the request's
 * stop came to it, is heard as the unit's fatal failure ({@code onFailed}, the log's "failed fatally") by a read of
 * {@code stopCame} made with no lock. The request can still end well after that read (its last segment delivered while
 * the job's thread is in the listener, or between the read and the throw): the stopped scope then ignores the Error,
 * and the listener hears {@code onFailed} and then {@code onRequestDone}, the very pair 167ee25 meant to end. A job
 * that heard the Error as its unit's failure must fail the request with it. Here the listener's {@code onFailed} waits
 * for the request's end (the interrupt of its thread) to make the window wide; in the wild it is a few instructions,
 * or a slow listener.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnErrorHeardFromACoveredDialIsNotFollowedByARequestThatEndedWellTest {

    // (1,1) covers (1,0) while it dials (CoveredWhileDialing) and delivers the last segment.
    private static final RequestPlan PLAN = new RequestPlan(0, 2, 2, 2);
    private static final JobKey LOW = CoveredWhileDialing.LOW;

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void anErrorHeardAsAFailureFailsTheRequest(boolean ordered) throws Exception {
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 fleet = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch heard = new CountDownLatch(1);
        Tier2Client tier2 = CoveredWhileDialing.tier2(job -> {
            try {
                return CoveredWhileDialing.heldUntilInterrupted("the dial of " + LOW);
            } catch (InterruptedException cover) {
                // the cover's interrupt, before the request's end: answered with an Error at once
                throw new AssertionError("fake tier2: its dial was interrupted");
            }
        }, fleet::dial);
        List<Job> failed = new CopyOnWriteArrayList<>();
        List<RequestResult> done = new CopyOnWriteArrayList<>();
        AtomicBoolean endCameInTheListener = new AtomicBoolean();
        RequestListener listener = new RequestListener() {
            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                failed.add(job);
                heard.countDown();
                try {
                    // a listener that takes its time: the request's end (its interrupt) comes meanwhile
                    never.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException end) {
                    endCameInTheListener.set(true);
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void onRequestDone(RequestResult result) {
                done.add(result);
            }
        };
        RecordingClient recording = new RecordingClient();
        SegmentConsumer client = (segment, output) -> {
            // The last segment is taken once the covered dial's Error was heard as a failure: the request then ends.
            if (segment == 1 && !heard.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError(LOW + "'s Error was never heard");
            }
            recording.accept(segment, output);
        };

        Request request = Request.of(PLAN, tier2, store, client).withListener(listener);
        try {
            Orderly.engine(config).run(request);
        } catch (RequestFailedException | Error e) {
            // failing with the Error it heard is one consistent answer
            assertEquals(List.of(), done, "onRequestDone of a request that failed");
            return;
        }
        assertTrue(endCameInTheListener.get(), "the request ended while the listener heard the failure");
        assertEquals(List.of(), failed, "onFailed (" + failed + ") and then onRequestDone: " + done);
    }
}
