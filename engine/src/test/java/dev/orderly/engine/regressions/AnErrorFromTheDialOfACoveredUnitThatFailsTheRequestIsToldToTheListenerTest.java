package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An {@code Error} thrown by {@code Tier2Client.dial} fails the request naming the unit, and is told to the listener
 * as the unit's fatal failure first (AnErrorFromDialIsToldToTheListenerAsFatalTest). Not when the unit was covered
 * while it dialed (a higher stage of its segment got done, whose cover interrupts the dial, and the client answered
 * with an {@code Error}): the request still failed with that {@code Error}, naming the unit, but the listener heard no
 * {@code onFailed} for it, because the engine took a unit that is no longer needed for the echo of the request's stop.
 * So {@code orderly.dials} counted no fatal dial, {@code orderly.launch.dialing} kept the dial until the request's end,
 * and JFR recorded the dial as {@code cancelled}, while the request failed because of it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnErrorFromTheDialOfACoveredUnitThatFailsTheRequestIsToldToTheListenerTest {

    // (1,1) covers (1,0) while it dials (CoveredWhileDialing); segment 2 never gets done, so the request can not end
    // well.
    private static final RequestPlan PLAN = new RequestPlan(0, 3, 2, 2);
    private static final JobKey LOW = CoveredWhileDialing.LOW;

    private record Failed(Job job, Tier2Exception cause) {
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theCoveredUnitsDialErrorIsHeardAsItsFatalFailure(boolean ordered) throws Exception {
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();
        AssertionError bug = new AssertionError("fake tier2: its dial was interrupted");
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 fleet = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        Tier2Client tier2 = CoveredWhileDialing.tier2(job -> {
            try {
                return CoveredWhileDialing.heldUntilInterrupted("the dial of " + LOW);
            } catch (InterruptedException e) {
                // the cover's interrupt, answered with an Error (a test fake's assertion, say)
                throw bug;
            }
        }, job -> job.key().segment() == 2
                // held until the request's end interrupts it
                ? CoveredWhileDialing.heldUntilInterrupted(job.key().toString())
                : fleet.dial(job));
        List<Failed> failed = new CopyOnWriteArrayList<>();
        List<RequestResult> ends = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                failed.add(new Failed(job, cause));
            }

            @Override
            public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                ends.add(soFar);
            }
        };

        RequestFailedException failure = assertThrows(RequestFailedException.class, () -> Orderly.engine(config)
                .run(Request.of(PLAN, tier2, store, new RecordingClient()).withListener(listener)));

        // the request failed because of the covered unit's Error ...
        assertEquals(LOW, failure.key().orElseThrow());
        assertSame(bug, failure.getCause());
        assertEquals(1, ends.size());
        // ... so the listener hears how that dial ended, as for any unit whose dial Error fails the request
        assertEquals(1, failed.size(), "onFailed calls: " + failed);
        assertEquals(LOW, failed.getFirst().job().key());
        assertEquals(Tier2Exception.Kind.FATAL, failed.getFirst().cause().kind());
        assertSame(bug, failed.getFirst().cause().getCause());
        assertTrue(ends.getFirst().dials() >= 2);
    }
}
