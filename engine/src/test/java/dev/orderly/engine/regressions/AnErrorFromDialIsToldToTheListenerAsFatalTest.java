package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
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
 * {@link RequestListener#onFailed}: "the job got in and failed ..., or failed fatally". An {@code Error} from
 * {@code Tier2Call.await} was told to the listener as a fatal failure, and so was a {@code RuntimeException} from
 * {@code dial}; an {@code Error} from {@code dial} (an {@code AssertionError} of a test fake, an
 * {@code ExceptionInInitializerError} of a transport) failed the request naming the unit, but the listener never heard
 * how that dial ended: no {@code onFailed}, so the {@code orderly.dials} meter counted no {@code fatal} dial and kept
 * it in the dialing gauge until the request's end, and JFR recorded the dial as {@code cancelled}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnErrorFromDialIsToldToTheListenerAsFatalTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 1, 2);
    private static final JobKey UNIT = new JobKey(2, 0);

    private record Failed(Job job, Tier2Exception cause) {
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void anErrorThrownByDialIsHeardAsTheUnitsFatalFailure(boolean ordered) {
        EngineConfig config = ordered ? Fixtures.fast() : Fixtures.fastUnordered();
        AssertionError bug = new AssertionError("fake tier2 asserted");
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 fleet = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        Tier2Client tier2 = job -> {
            if (job.key().equals(UNIT)) {
                throw bug;
            }
            return fleet.dial(job);
        };
        List<Failed> failed = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                failed.add(new Failed(job, cause));
            }
        };

        RequestFailedException failure = assertThrows(RequestFailedException.class, () -> Orderly.engine(config)
                .run(Request.of(PLAN, tier2, store, new RecordingClient()).withListener(listener)));

        assertEquals(UNIT, failure.key().orElseThrow());
        assertSame(bug, failure.getCause());
        assertEquals(1, failed.size(), "onFailed calls: " + failed);
        assertEquals(UNIT, failed.getFirst().job().key());
        assertEquals(Tier2Exception.Kind.FATAL, failed.getFirst().cause().kind());
        assertSame(bug, failed.getFirst().cause().getCause());
    }
}
