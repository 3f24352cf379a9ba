package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
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
 * The other side of AnErrorFromTheDialOfACoveredUnitThatFailsTheRequestIsToldToTheListenerTest: a unit covered while
 * it dialed, whose dial throws its {@code Error} only once the request has ended well (every segment delivered, the
 * scope cancelled), fails nothing: the scope takes it for the echo of the stop. The listener must not hear it as the
 * unit's fatal failure (nor the log warn "failed fatally") in a request that then reports {@code onRequestDone}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnErrorFromACoveredUnitsDialAfterTheRequestEndedWellIsNotHeardAsAFailureTest {

    // (1,1) covers (1,0) while it dials (CoveredWhileDialing) and delivers the last segment: the request ends well.
    private static final RequestPlan PLAN = new RequestPlan(0, 2, 2, 2);
    private static final JobKey LOW = CoveredWhileDialing.LOW;

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aCoveredDialsErrorAfterTheRequestsEndIsNotAFailure(boolean ordered) throws Exception {
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 fleet = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        CountDownLatch covered = new CountDownLatch(1);
        AtomicBoolean sawTwoInterrupts = new AtomicBoolean();
        Tier2Client tier2 = CoveredWhileDialing.tier2(job -> {
            try {
                CoveredWhileDialing.heldUntilInterrupted("the dial of " + LOW);
            } catch (InterruptedException cover) {
                // the cover's interrupt: the client tidies up, in a wait of its own ...
                covered.countDown();
            }
            try {
                return CoveredWhileDialing.heldUntilInterrupted("the dial of " + LOW + ", by the request's end,");
            } catch (InterruptedException end) {
                // ... which the request's end (every segment delivered) interrupts: answered with an Error
                sawTwoInterrupts.set(true);
                throw new AssertionError("fake tier2: its dial was interrupted twice");
            }
        }, fleet::dial);
        List<Job> failed = new CopyOnWriteArrayList<>();
        List<RequestResult> done = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                failed.add(job);
            }

            @Override
            public void onRequestDone(RequestResult result) {
                done.add(result);
            }
        };

        RecordingClient recording = new RecordingClient();
        SegmentConsumer client = (segment, output) -> {
            // The last segment is taken only once the cover reached the dial: its delivery ends the request.
            if (segment == 1 && !covered.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError(LOW + " was never covered");
            }
            recording.accept(segment, output);
        };

        Orderly.engine(config).run(Request.of(PLAN, tier2, store, client).withListener(listener));

        assertEquals(List.of(0L, 1L), recording.segments());
        assertEquals(1, done.size());
        assertTrue(sawTwoInterrupts.get(), "the covered dial threw its Error after the request's end");
        assertEquals(List.of(), failed, "onFailed in a request that ended well");
    }
}
