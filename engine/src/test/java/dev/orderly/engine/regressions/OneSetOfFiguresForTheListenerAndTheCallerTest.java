package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19, defect 6: {@code onRequestFailed}'s {@code soFar} and the exception's {@code partialResult()} differed in
 * {@code elapsed} (computed twice). One snapshot, equal in every field; the same for a cancelled and a done request.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OneSetOfFiguresForTheListenerAndTheCallerTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 3, 1, 2);

    /** Keeps what the request-end events were given. */
    private static final class Ends implements RequestListener {
        final CompletableFuture<RequestResult> result = new CompletableFuture<>();

        @Override
        public void onRequestDone(RequestResult r) {
            result.complete(r);
        }

        @Override
        public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
            result.complete(soFar);
        }

        @Override
        public void onRequestCancelled(RequestResult soFar) {
            result.complete(soFar);
        }
    }

    @Test
    void aFailedRequestGivesTheListenerTheFiguresTheExceptionCarries() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write,
                job -> Script.throwOnDial(Tier2Exception.fatal("module panicked", null)));
        Ends ends = new Ends();

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(Fixtures.fast())
                .run(Request.of(PLAN, tier2, store, new RecordingClient()).withListener(ends)));

        assertEquals(e.partialResult().orElseThrow(), ends.result.getNow(null));
    }

    @Test
    void aCancelledRequestGivesTheListenerTheFiguresTheExceptionCarries() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.block());
        Ends ends = new Ends();
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(PLAN, tier2, store, new RecordingClient()).withListener(ends));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> tier2.blocked() == 2);

        run.interrupt();

        InterruptedException e = assertInstanceOf(InterruptedException.class, run.failure(10));
        assertEquals(RequestFailedException.partialResultOf(e).orElseThrow(), ends.result.getNow(null));
    }

    @Test
    void aDoneRequestGivesTheListenerWhatRunReturns() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        Ends ends = new Ends();

        RequestResult result = Orderly.engine(Fixtures.fast())
                .run(Request.of(PLAN, tier2, store, new RecordingClient()).withListener(ends));

        assertEquals(result, ends.result.getNow(null));
    }
}
