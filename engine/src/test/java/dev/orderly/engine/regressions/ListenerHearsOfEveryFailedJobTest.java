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
import dev.orderly.api.RequestResult;
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
 * {@link RequestListener#onFailed} hears of every job that got in and failed, whatever the kind: an execution
 * timeout, a retryable error, and the fatal error that fails the request (a client's own exception counts as fatal).
 * A metrics listener that missed timeouts or the fatal error would show a fleet healthier than it is.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ListenerHearsOfEveryFailedJobTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 6, 2, 3);
    private static final JobKey UNIT = new JobKey(4, 1);

    /** One onFailed call: the job and what it failed with. */
    private record Failed(Job job, Tier2Exception cause) {
    }

    private static final class Failures implements RequestListener {
        final List<Failed> seen = new CopyOnWriteArrayList<>();

        @Override
        public void onFailed(Job job, Tier2Exception cause) {
            seen.add(new Failed(job, cause));
        }
    }

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    private static ScriptedTier2 tier2(InMemoryOutputStore store, Script first) {
        return new ScriptedTier2(PLAN, store::write, job -> job.key().equals(UNIT) && job.attempt() == 1
                ? first : Script.succeed());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void anExecutionTimeoutIsToldToTheListener(boolean ordered) throws Exception {
        Tier2Exception timeout = Tier2Exception.executionTimeout("deadline exceeded");
        InMemoryOutputStore store = new InMemoryOutputStore();
        Failures failures = new Failures();

        RequestResult result = Orderly.engine(config(ordered)).run(
                Request.of(PLAN, tier2(store, Script.throwOnAwait(timeout)), store, new RecordingClient())
                        .withListener(failures));

        assertEquals(1, result.executionTimeouts());
        assertEquals(1, failures.seen.size(), "onFailed calls: " + failures.seen);
        Failed failed = failures.seen.getFirst();
        assertEquals(UNIT, failed.job().key());
        assertEquals(1, failed.job().attempt());
        assertSame(timeout, failed.cause());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void theFatalErrorThatFailsTheRequestIsToldToTheListener(boolean ordered) {
        Tier2Exception fatal = Tier2Exception.fatal("bad module", null);
        InMemoryOutputStore store = new InMemoryOutputStore();
        Failures failures = new Failures();

        RequestFailedException failure = assertThrows(RequestFailedException.class, () -> Orderly.engine(
                config(ordered)).run(Request.of(PLAN, tier2(store, Script.throwOnAwait(fatal)), store,
                new RecordingClient()).withListener(failures)));

        assertSame(fatal, failure.getCause());
        assertEquals(1, failures.seen.size(), "onFailed calls: " + failures.seen);
        assertEquals(UNIT, failures.seen.getFirst().job().key());
        assertSame(fatal, failures.seen.getFirst().cause());
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aClientsOwnExceptionIsToldToTheListenerAsFatal(boolean ordered) {
        IllegalStateException bug = new IllegalStateException("client bug");
        InMemoryOutputStore store = new InMemoryOutputStore();
        Failures failures = new Failures();

        RequestFailedException failure = assertThrows(RequestFailedException.class, () -> Orderly.engine(
                config(ordered)).run(Request.of(PLAN, tier2(store, Script.throwOnDial(bug)), store,
                new RecordingClient()).withListener(failures)));

        assertEquals(1, failures.seen.size(), "onFailed calls: " + failures.seen);
        Failed failed = failures.seen.getFirst();
        assertEquals(UNIT, failed.job().key());
        assertEquals(Tier2Exception.Kind.FATAL, failed.cause().kind());
        assertSame(bug, failed.cause().getCause());
        assertSame(failed.cause(), failure.getCause());
    }
}
