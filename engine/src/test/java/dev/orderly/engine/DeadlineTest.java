package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Request.withDeadline}: past it the request fails saying how far it got and what it waited for, everything
 * cancelled; and every failure or cancellation carries the partial result.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DeadlineTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 3);

    private static EngineConfig config(boolean ordered) {
        return ordered ? Fixtures.fast() : Fixtures.fastUnordered();
    }

    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void aFleetThatAlwaysRefusesFailsTheRequestAtItsDeadline(boolean ordered) {
        RequestPlan plan = new RequestPlan(100, 110, 2, 3); // not from 0: "3 of 10" counts from the first segment
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> job.key().segment() < 103 ? Script.succeed() : Script.refuse(1));
        ThreadCensus census = new ThreadCensus();
        RecordingClient client = new RecordingClient();
        Background run = new Background(census.engine(config(ordered)),
                Request.of(plan, tier2, store, client).withId("r-7").withDeadline(Duration.ofSeconds(2)));

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertTrue(failure.getMessage().matches("request r-7 passed its deadline of 2s: 3 of 10 segments delivered,"
                // stage 0 of segment 103, or its stage 1 if a worker was free for it when segment 102 was done
                + " segment 103 waiting for stage [01], [1-9][0-9]* refusals"), failure.getMessage());
        RequestResult partial = failure.partialResult().orElseThrow();
        assertEquals(3, partial.segmentsDelivered());
        assertTrue(partial.refusals() > 0, partial.toString());
        assertEquals(Fixtures.range(100, 103), client.segments());
        assertEquals(0, census.alive(), "request threads alive after run ended");
        assertEquals(0, tier2.openCalls());
    }

    @Test
    void aRequestWithinItsDeadlineDeliversEverything() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        RecordingClient client = new RecordingClient();

        RequestResult result = Orderly.engine(Fixtures.fast())
                .run(Request.of(PLAN, tier2, store, client).withDeadline(Duration.ofMinutes(5)));

        assertEquals(10, result.segmentsDelivered());
        assertEquals(Fixtures.range(0, 10), client.segments());
    }

    @Test
    void aFailedRequestCarriesThePartialResult() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        CountDownLatch fiveDelivered = new CountDownLatch(5);
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> {
            if (job.key().segment() < 5) {
                return Script.succeed();
            }
            fiveDelivered.await();
            return Script.throwOnDial(Tier2Exception.fatal("bad module", null));
        });
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(PLAN, tier2, store, (segment, output) -> fiveDelivered.countDown()));

        RequestFailedException failure = assertInstanceOf(RequestFailedException.class, run.failure(10));

        assertEquals(5, failure.partialResult().orElseThrow().segmentsDelivered());
        assertEquals(failure.partialResult(), RequestFailedException.partialResultOf(failure));
    }

    @Test
    void anInterruptedRequestCarriesThePartialResultAsASuppressedException() {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write,
                job -> job.key().segment() < 4 ? Script.succeed() : Script.block());
        RecordingClient client = new RecordingClient();
        Background run = new Background(Orderly.engine(Fixtures.fast()), Request.of(PLAN, tier2, store, client));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> client.segments().size() == 4
                && tier2.blocked() > 0);

        run.interrupt();
        InterruptedException interrupted = assertInstanceOf(InterruptedException.class, run.failure(10));

        assertEquals(4, RequestFailedException.partialResultOf(interrupted).orElseThrow().segmentsDelivered());
    }
}
